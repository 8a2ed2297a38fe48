import os from 'node:os';
import type { AgentFactory } from '../agent/types.ts';
import type { Config } from '../config.ts';
import { outboundFetch } from '../shared/outbound.ts';
import type { Database } from '../db/index.ts';
import type { EventBus } from '../realtime/event-bus.ts';
import type { Runtime } from '../runtime/types.ts';
import type { Handlers } from '../shared/operations.ts';
import { loadSecret, SecretBox } from '../shared/secret-box.ts';
import { affiliateHandlers, createAffiliates } from './affiliate/index.ts';
import { apiKeysHandlers, createApiKeysService } from './api-keys/index.ts';
import { authHandlers, createAuthService, findUser, hashToken, newToken } from './auth/index.ts';
import { createChatOnboardingModule } from './chat-onboarding/index.ts';
import { createConversationsModule, type ConversationsDeps } from './conversations/index.ts';
import {
  createDeploymentsService,
  deploymentsHandlers,
  digitalOceanProvider,
  localProvider,
} from './deployments/index.ts';
import { freePort } from '../runtime/ports.ts';
import { createGitService, gitHandlers } from './git/index.ts';
import { createIdentityService, identityHandlers, signInTokenRefresh } from './identity/index.ts';
import { createMailer } from './mail/index.ts';
import { createDevopsService, createDevopsStore, devopsHandlers } from './devops/index.ts';
import { createFeedbackService, feedbackHandlers } from './feedback/index.ts';
import { createOnboardingService, onboardingHandlers } from './onboarding/index.ts';
import { optionsHandlers } from './options/index.ts';
import {
  billingHistoryHandlers,
  createPaymentsService,
  createStripeProvider,
  paymentsHandlers,
  testPaymentProvider,
} from './billing/index.ts';
import { createSecretsService, secretsHandlers } from './secrets/index.ts';
import { createSettingsService, settingsHandlers } from './settings/index.ts';
import { systemHandlers } from './system/index.ts';
import { userHandlers } from './user/index.ts';

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
  const box = new SecretBox(loadSecret(config.secretKey, config.dataDir));
  // Requests made because of a user's input (git hosts, MCP servers): guarded in saas mode.
  const outbound = outboundFetch(config.outbound);
  const mailer = createMailer(db, { smtpUrl: config.smtpUrl, from: config.supportEmail, log: services.log });
  const affiliates = createAffiliates(db, {
    rateLimit: { perIp: config.authRateLimit.perIp, windowMs: config.authRateLimit.windowMs },
    publicUrl: config.publicUrl,
    fingerprint: (value) => box.fingerprint(value),
  });
  const auth = createAuthService(db, {
    rateLimit: config.authRateLimit,
    bus: services.bus,
    mail: { mailer, publicUrl: config.publicUrl },
    log: services.log,
    referralCode: affiliates.links.referralCode,
  });
  const settings = createSettingsService(db, config, box, services.bus, signInTokenRefresh(config));
  const secrets = createSecretsService(db, box);
  const apiKeys = createApiKeysService(db, { newKey: newToken, hashKey: hashToken, userChanged: auth.userChanged });
  const conversations = createConversationsModule({
    db,
    config,
    box,
    settings,
    secrets,
    outboundFetch: outbound,
    nodeId: nodeIdentity(config),
    ...services,
  });
  const payments = createPaymentsService(db, {
    provider: config.stripe ? createStripeProvider(config.stripe) : testPaymentProvider,
    publicUrl: config.publicUrl,
  });
  const onboarding = createOnboardingService(db, {
    userChanged: auth.userChanged,
    saveCard: payments.saveCard,
    verifyCard: payments.verifyCard,
    cardSetup: payments.cardSetup,
    cardSetupPage: (userId, chat) => payments.setup(userId, 'onboarding', chat ? { chat } : {}),
    fingerprint: (digits) => box.fingerprint(digits),
  });
  const ownsConversation = async (userId: string, conversationId: string) =>
    Boolean(await conversations.service.find({ id: userId }, conversationId));
  const devopsStore = createDevopsStore(db);
  const deployments = createDeploymentsService({
    db,
    provider: config.digitalOcean
      ? digitalOceanProvider(config.digitalOcean)
      : localProvider(services.runtime.apps, freePort),
    ownsConversation,
    announce: async (userId, conversationId, text) =>
      void (await devopsStore.append({ conversationId, userId, sender: 'agent', text })),
  });
  const devops = createDevopsService({
    db,
    store: devopsStore,
    deployments,
    settings,
    runtime: services.runtime,
    charges: config.appMode === 'saas',
    ownsConversation,
  });
  const chatOnboarding = createChatOnboardingModule({
    db,
    bus: services.bus,
    rateLimit: { perIp: config.authRateLimit.perIp, windowMs: config.authRateLimit.windowMs },
    newToken,
    hashToken,
    operatorModel: settings.operatorModel,
    createConversation: async (user, firstMessage, files) =>
      (await conversations.service.create(user, { initial_user_msg: firstMessage }, files)).conversation_id,
    dataDir: config.dataDir,
    findUser: async (userId) => {
      const account = await findUser(db, userId);
      return account && { id: account.id, email: account.email, isActive: account.isActive };
    },
  });
  const identity = createIdentityService(db, config, { auth, settings });
  const feedback = createFeedbackService({ db, findOwned: conversations.service.find, events: conversations.events });
  const handlers: Handlers = {
    ...systemHandlers(database),
    ...authHandlers(auth, config.appMode === 'saas'),
    ...identityHandlers(identity),
    ...optionsHandlers(config, identity.signInProviders, payments.provider.hosted !== null),
    ...settingsHandlers(settings),
    ...secretsHandlers(secrets),
    ...apiKeysHandlers(apiKeys, config.appMode === 'saas'),
    ...userHandlers(db),
    ...gitHandlers(createGitService(settings, outbound)),
    ...conversations.handlers,
    ...feedbackHandlers(feedback),
    ...onboardingHandlers(onboarding, config.appMode === 'saas'),
    ...billingHistoryHandlers(db),
    ...paymentsHandlers(payments),
    ...affiliateHandlers(affiliates),
    ...deploymentsHandlers(deployments),
    ...devopsHandlers(devops),
    ...chatOnboarding.handlers,
  };
  return { auth, affiliates, conversations, deployments, chatOnboarding, handlers };
}

export type Modules = ReturnType<typeof createModules>;
