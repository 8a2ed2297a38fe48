import type { Config } from '../../config.ts';
import type { Handlers } from '../../shared/operations.ts';

export function optionsHandlers(config: Config): Handlers {
  return {
    getConfig: async () => ({
      APP_MODE: config.appMode,
      FEATURE_FLAGS: config.featureFlags,
      AFFILIATE_API_URL: config.affiliateApiUrl,
      PUBLIC_URL: config.publicUrl,
      VSCODE_URL: config.vscodeUrl,
      SUPPORT_EMAIL: config.supportEmail,
      BUILD_NUMBER: config.buildNumber,
    }),
  };
}
