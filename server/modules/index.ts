import os from 'node:os';
import type { AgentFactory } from '../agent/types.ts';
import type { Config } from '../config.ts';
import { outboundFetch } from '../shared/outbound.ts';
import type { Database } from '../db/index.ts';
import type { EventBus } from '../realtime/event-bus.ts';
import type { Runtime } from '../runtime/types.ts';
import type { Handlers } from '../shared/operations.ts';
import { loadSecret, SecretBox } from '../shared/secret-box.ts';
import { createAffiliateModule } from './affiliate/index.ts';
import { createApiKeysModule } from './api-keys/index.ts';
import { createAuthModule, findUser, hashToken, newToken } from './auth/index.ts';
import { createBillingModule, createStripeProvider, testPaymentProvider } from './billing/index.ts';
import { createChatOnboardingModule } from './chat-onboarding/index.ts';
import { createConversationsModule, type ConversationsDeps } from './conversations/index.ts';
import { createDeploymentsModule, digitalOceanProvider, localProvider } from './deployments/index.ts';
import { createDevopsModule, devopsAnnouncer } from './devops/index.ts';
import { createFeedbackModule } from './feedback/index.ts';
import { createGitModule } from './git/index.ts';
import { createIdentityModule, signInTokenRefresh } from './identity/index.ts';
import { createMailer } from './mail/index.ts';
import { createOnboardingModule } from './onboarding/index.ts';
import { createOptionsModule } from './options/index.ts';
import { createSecretsModule } from './secrets/index.ts';
import { createSettingsModule } from './settings/index.ts';
import { createSystemModule } from './system/index.ts';
import { createUserModule } from './user/index.ts';
import { freePort } from '../runtime/ports.ts';

export interface ModuleServices {
  bus: EventBus;
  runtime: Runtime;
  agentFactory: AgentFactory | undefined;
  log: ConversationsDeps['log'];
}

/**
 * This process among the nodes sharing a database: host and port identify it across a
 * restart, so a restarted node recognises the conversations it left running.
 */
const nodeIdentity = (config: Config) => `${os.hostname()}:${config.port}`;

/** Builds every module once; the http layer binds their handlers to the contract's operations. */
export function createModules(config: Config, database: Database, services: ModuleServices) {
  const db = database.db;
  const hosted = config.appMode === 'saas';
  const box = new SecretBox(loadSecret(config.secretKey, config.dataDir));
  // Requests made because of a user's input (git hosts, MCP servers): guarded in saas mode.
  const outbound = outboundFetch(config.outbound);
  const mailer = createMailer(db, { smtpUrl: config.smtpUrl, from: config.supportEmail, log: services.log });
  const affiliate = createAffiliateModule({
    db,
    rateLimit: { perIp: config.authRateLimit.perIp, windowMs: config.authRateLimit.windowMs },
    publicUrl: config.publicUrl,
    fingerprint: (value) => box.fingerprint(value),
  });
  const auth = createAuthModule({
    db,
    hosted,
    rateLimit: config.authRateLimit,
    bus: services.bus,
    mail: { mailer, publicUrl: config.publicUrl },
    log: services.log,
    referralCode: affiliate.service.links.referralCode,
  });
  const settings = createSettingsModule({
    db,
    config,
    box,
    bus: services.bus,
    refreshToken: signInTokenRefresh(config),
  });
  const secrets = createSecretsModule({ db, box });
  const apiKeys = createApiKeysModule({
    db,
    hosted,
    newKey: newToken,
    hashKey: hashToken,
    userChanged: auth.service.userChanged,
  });
  const conversations = createConversationsModule({
    db,
    config,
    box,
    settings: settings.service,
    secrets: secrets.service,
    outboundFetch: outbound,
    nodeId: nodeIdentity(config),
    ...services,
  });
  const billing = createBillingModule({
    db,
    provider: config.stripe ? createStripeProvider(config.stripe) : testPaymentProvider,
    publicUrl: config.publicUrl,
  });
  const onboarding = createOnboardingModule({
    db,
    hosted,
    userChanged: auth.service.userChanged,
    saveCard: billing.service.saveCard,
    verifyCard: billing.service.verifyCard,
    cardSetup: billing.service.cardSetup,
    cardSetupPage: (userId, chat) => billing.service.setup(userId, 'onboarding', chat ? { chat } : {}),
    fingerprint: (digits) => box.fingerprint(digits),
  });
  const ownsConversation = async (userId: string, conversationId: string) =>
    Boolean(await conversations.service.find({ id: userId }, conversationId));
  const deployments = createDeploymentsModule({
    db,
    provider: config.digitalOcean
      ? digitalOceanProvider(config.digitalOcean)
      : localProvider(services.runtime.apps, freePort),
    ownsConversation,
    announce: devopsAnnouncer(db),
  });
  const devops = createDevopsModule({
    db,
    deployments: deployments.service,
    settings: settings.service,
    runtime: services.runtime,
    charges: hosted,
    ownsConversation,
  });
  const chatOnboarding = createChatOnboardingModule({
    db,
    bus: services.bus,
    rateLimit: { perIp: config.authRateLimit.perIp, windowMs: config.authRateLimit.windowMs },
    newToken,
    hashToken,
    operatorModel: settings.service.operatorModel,
    createConversation: async (user, firstMessage, files) =>
      (await conversations.service.create(user, { initial_user_msg: firstMessage }, files)).conversation_id,
    dataDir: config.dataDir,
    findUser: async (userId) => {
      const account = await findUser(db, userId);
      return account && { id: account.id, email: account.email, isActive: account.isActive };
    },
  });
  const identity = createIdentityModule({ db, config, auth: auth.service, settings: settings.service });
  const feedback = createFeedbackModule({
    db,
    findOwned: conversations.service.find,
    events: conversations.events,
  });
  const options = createOptionsModule({
    config,
    signInProviders: identity.service.signInProviders,
    hostedPayments: billing.service.provider.hosted !== null,
  });
  const handlers: Handlers = {
    ...createSystemModule({ database }).handlers,
    ...auth.handlers,
    ...identity.handlers,
    ...options.handlers,
    ...settings.handlers,
    ...secrets.handlers,
    ...apiKeys.handlers,
    ...createUserModule({ db }).handlers,
    ...createGitModule({ settings: settings.service, outboundFetch: outbound }).handlers,
    ...conversations.handlers,
    ...feedback.handlers,
    ...onboarding.handlers,
    ...billing.handlers,
    ...affiliate.handlers,
    ...deployments.handlers,
    ...devops.handlers,
    ...chatOnboarding.handlers,
  };
  return {
    auth: auth.service,
    affiliates: affiliate.service,
    conversations,
    deployments: deployments.service,
    chatOnboarding,
    handlers,
  };
}

export type Modules = ReturnType<typeof createModules>;
