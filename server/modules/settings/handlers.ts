import { NotFound } from '../../shared/domain-errors.ts';
import { requireUser, type Handlers } from '../../shared/operations.ts';
import type { SettingsService } from './service.ts';

export function settingsHandlers(settings: SettingsService): Handlers {
  return {
    getSettings: async (ctx) => {
      const found = await settings.read(requireUser(ctx).id);
      if (!found) throw new NotFound('Settings not found');
      return found;
    },
    saveSettings: async (ctx) => {
      await settings.save(requireUser(ctx).id, ctx.body);
      return { success: true };
    },
    testModelConnection: async (ctx) => settings.testConnection(requireUser(ctx).id, ctx.body),
    checkMcpServers: async (ctx) => settings.checkMcp(requireUser(ctx).id),
    unsetProviderTokens: async (ctx) => {
      await settings.unsetProviderTokens(requireUser(ctx).id);
      return { success: true };
    },
  };
}
