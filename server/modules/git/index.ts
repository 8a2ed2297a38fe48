import type { SettingsService } from '../settings/index.ts';
import { gitHandlers } from './handlers.ts';
import { createGitService } from './service.ts';

export { PROVIDER_NAMES, unreachable } from './rest.ts';
export type { GitHost, GitProvider } from './types.ts';
export { gitHost, NO_PROVIDER, type GitService } from './service.ts';

export interface GitDeps {
  settings: Pick<SettingsService, 'providerTokens'>;
  outboundFetch: typeof fetch;
}

export function createGitModule({ settings, outboundFetch }: GitDeps) {
  const service = createGitService(settings, outboundFetch);
  return { service, handlers: gitHandlers(service) };
}
