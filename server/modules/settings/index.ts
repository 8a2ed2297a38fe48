import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import { settingsHandlers } from './handlers.ts';
import { createSettingsService } from './service.ts';
import type { RefreshToken } from './token-refresh.ts';

export { configuredModelId, DEFAULT_MODEL } from './llm.ts';
export { userLanguage } from './store.ts';
export type { GitProvider, TokenGrant } from './store.ts';
export type { RefreshToken } from './token-refresh.ts';
export type { SettingsService } from './service.ts';

export interface SettingsDeps {
  db: Db;
  config: Config;
  box: SecretBox;
  bus: Pick<EventBus, 'announce' | 'onAnnouncement' | 'onReconnect'>;
  /** Trades a sign-in's refresh token (saas, where the sign-in apps are); null: tokens are used as saved. */
  refreshToken: RefreshToken | null;
}

export function createSettingsModule({ db, config, box, bus, refreshToken }: SettingsDeps) {
  const service = createSettingsService(db, config, box, bus, refreshToken);
  return { service, handlers: settingsHandlers(service) };
}
