import type { components } from '../../../openapi/schema.d.ts';
import type { Config } from '../../config.ts';
import type { Handlers } from '../../shared/operations.ts';
import { configuredModelId } from '../settings/index.ts';
import { knownModels } from './models.ts';

/**
 * The one agent class, and the one analyzer it implements: the model's own `security_risk`
 * combined with static rules for known-destructive commands (server/agent/security-analyzer.ts).
 */
const AGENTS = ['CodeActAgent'];
const SECURITY_ANALYZERS = ['llm'];

export function optionsHandlers(
  config: Config,
  signInProviders: () => components['schemas']['SignInProvider'][],
  hostedPayments: boolean,
): Handlers {
  return {
    getConfig: async () => ({
      APP_MODE: config.appMode,
      FEATURE_FLAGS: config.featureFlags,
      AFFILIATE_API_URL: config.affiliateApiUrl,
      PUBLIC_URL: config.publicUrl,
      VSCODE_URL: config.vscodeUrl,
      SUPPORT_EMAIL: config.supportEmail,
      BUILD_NUMBER: config.buildNumber,
      OPERATOR_MODEL: configuredModelId(config.llm),
      SIGN_IN_PROVIDERS: signInProviders(),
      HOSTED_PAYMENTS: hostedPayments,
    }),
    listModels: async () => knownModels(config),
    listAgents: async () => AGENTS,
    listSecurityAnalyzers: async () => SECURITY_ANALYZERS,
  };
}
