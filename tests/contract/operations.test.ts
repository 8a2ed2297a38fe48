import { eq } from 'drizzle-orm';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailVerifications } from '../../server/db/schema.ts';
import { setAffiliateStatus } from '../../server/modules/affiliate/index.ts';
import { findUserId } from '../../server/modules/auth/index.ts';
import { call, withTestApp } from '../support/app.ts';
import { giveCredit, saveOnboardingContact, signUp, waitRunning } from '../support/conversations.ts';
import { newestMailTo, verificationToken } from '../support/mail.ts';
import { startGitHubApiServer } from '../support/git-host-apis.ts';
import { startDigitalOceanApi } from '../support/digitalocean-api.ts';
import { FakeLlm, reply } from '../support/fake-llm/index.ts';
import { startStripeServer } from '../support/stripe-server.ts';
import { sample } from './sample.ts';

// The local GitHub-like server below is on this machine: allowed as an operator allows a LAN host.
const t = withTestApp({ OUTBOUND_ALLOWED_RANGES: '127.0.0.1' });
// The operations of self-hosted installations only are asked of an oss app.
const oss = withTestApp({ APP_MODE: 'oss' });
// The hosted payment pages and their webhook, of an app paid through Stripe (a local Stripe peer).
let stripe: Awaited<ReturnType<typeof startStripeServer>>;
beforeAll(async () => {
  stripe = await startStripeServer({ secretKey: 'sk_test_contract', webhookSecret: 'whsec_contract' });
});
afterAll(() => stripe?.close());
// Deployments of the paid app go to a local DigitalOcean.
let digitalOcean: Awaited<ReturnType<typeof startDigitalOceanApi>>;
beforeAll(async () => {
  digitalOcean = await startDigitalOceanApi({ token: 'dop_contract' });
});
afterAll(() => digitalOcean?.close());
// The DevOps agent of the oss app talks to a fake model.
const llm = new FakeLlm('fake-model');
let llmUrl = '';
beforeAll(async () => {
  llmUrl = await llm.start();
});
afterAll(() => llm.stop());
// The git calls of a user whose GitHub token is for a local GitHub-like server.
let gitHub: Awaited<ReturnType<typeof startGitHubApiServer>>;
beforeAll(async () => {
  gitHub = await startGitHubApiServer({
    token: 'ghp_contract',
    repositories: [{ id: 1, full_name: 'octo/app', files: { '.openhands/microagents/repo.md': 'A web app.' } }],
    installations: [{ id: 1, repositories: ['octo/app'] }],
    oauth: { clientId: 'contract-app', clientSecret: 'contract-secret' },
  });
});
afterAll(() => gitHub?.close());
let gitUser: { token: string } | undefined;
async function gitCall(url: string) {
  if (!gitUser) {
    gitUser = await signUp(t.app, t.db, 'git@acme.example');
    await call(t.app, 'POST', '/api/settings', {
      token: gitUser.token,
      body: { provider_tokens: { github: { token: 'ghp_contract', host: gitHub.url } } },
    });
  }
  return call(t.app, 'GET', url, { token: gitUser.token });
}
const paid = withTestApp(() => ({
  STRIPE_SECRET_KEY: 'sk_test_contract',
  STRIPE_WEBHOOK_SECRET: 'whsec_contract',
  STRIPE_API_URL: stripe.url,
  // Sign-in through the local GitHub's OAuth app.
  GITHUB_OAUTH_CLIENT_ID: 'contract-app',
  GITHUB_OAUTH_CLIENT_SECRET: 'contract-secret',
  GITHUB_OAUTH_HOST: gitHub.url,
  DIGITALOCEAN_TOKEN: 'dop_contract',
  DIGITALOCEAN_API_URL: digitalOcean.url,
}));
let buyer: { token: string; id: string } | undefined;
let affiliateToken = '';
let affiliateLinkId = '';
const paidBuyer = async () => (buyer ??= await signUp(paid.app, paid.db, 'buyer@acme.example'));

/** A new account of the Stripe app whose card `cardNumber` was taken on Stripe's page for `returnTo`. */
async function setUpOnStripePage(email: string, cardNumber: string, returnTo: 'onboarding' | 'claim') {
  const user = await signUp(paid.app, paid.db, email);
  const setup =
    returnTo === 'onboarding'
      ? await call(paid.app, 'POST', '/api/atelier/onboarding/card-setup-session', { token: user.token })
      : await call(paid.app, 'POST', '/api/billing/create-customer-setup-session', {
          token: user.token,
          body: { return_to: returnTo },
        });
  const sessionId = (setup.body?.redirect_url as string).split('/').at(-1) as string;
  stripe.completeSetup(sessionId, cardNumber);
  return { token: user.token, sessionId };
}

/**
 * One successful call of every implemented operation. An operation that gets a handler
 * needs a line here, so its answers are checked against the contract.
 */
type Session = { token: string; email: string };
const scenarios: Record<string, (s: Session) => Promise<unknown>> = {
  getHealth: () => call(t.app, 'GET', '/health'),
  getReady: () => call(t.app, 'GET', '/ready'),
  getApiDocs: () => t.app.http.inject({ method: 'GET', url: '/api/docs' }),
  getOpenApiDocument: () => t.app.http.inject({ method: 'GET', url: '/api/openapi.yaml' }),
  getMetrics: () => t.app.http.inject({ method: 'GET', url: '/metrics' }),
  reportCspViolation: () =>
    t.app.http.inject({
      method: 'POST',
      url: '/api/csp-report',
      headers: { 'content-type': 'application/csp-report' },
      payload: JSON.stringify({
        'csp-report': { 'document-uri': 'http://localhost/', 'effective-directive': 'img-src' },
      }),
    }),
  register: () =>
    call(t.app, 'POST', '/api/auth/register', {
      body: { name: 'N', email: 'other@acme.example', password: 'long enough' },
    }),
  verifyEmail: async (s) =>
    call(t.app, 'POST', '/api/auth/verify-email', {
      body: { token: verificationToken((await newestMailTo(t.db, s.email)).text) },
    }),
  // The other account, a minute after its registration (its link's row aged by hand): a new link is due.
  resendEmailVerification: async () => {
    const other = await signIn('other@acme.example');
    await t.db
      .update(emailVerifications)
      .set({ createdAt: new Date(Date.now() - 61_000) })
      .where(eq(emailVerifications.email, 'other@acme.example'));
    return call(t.app, 'POST', '/api/email/verification', { token: other.token });
  },
  // Before the agreement's signature: the account's $100 is this one.
  claimCredits: (s) =>
    call(t.app, 'POST', '/api/auth/claim', {
      token: s.token,
      body: {
        card_number: '3782 822463 10005',
        expiry_date: '12/34',
        security_code: '1234',
        card_holder_name: 'C',
        billing_address: 'Main 1',
        acceptTerms: true,
      },
    }),
  sendUsageAgreement: (s) => call(t.app, 'POST', '/api/auth/usage-agreement', { token: s.token }),
  signUsageAgreement: async (s) => {
    const { text } = await newestMailTo(t.db, s.email);
    const token = /\/usage-agreement\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? '';
    return call(t.app, 'POST', '/api/auth/usage-agreement/sign', { body: { token } });
  },
  registerAffiliate: () =>
    call(t.app, 'POST', '/api/affiliate/register', {
      body: { full_name: 'Partner', email: 'partner@acme.example', password: 'long enough', whatsapp: '+1 2025550123' },
    }),
  affiliateLogin: async () => {
    const login = await call(t.app, 'POST', '/api/affiliate/login', {
      body: { email: 'partner@acme.example', password: 'long enough' },
    });
    affiliateToken = login.body?.access_token as string;
    await setAffiliateStatus(t.db, 'partner@acme.example', 'verified');
    return login;
  },
  getCurrentAffiliate: () => call(t.app, 'GET', '/api/affiliate/me', { token: affiliateToken }),
  createAffiliateLink: async () => {
    const created = await call(t.app, 'POST', '/api/affiliate/links', {
      token: affiliateToken,
      body: { name: 'Contract', code: 'contract-link' },
    });
    affiliateLinkId = created.body?.id as string;
    return created;
  },
  listAffiliateLinks: () => call(t.app, 'GET', '/api/affiliate/links', { token: affiliateToken }),
  updateAffiliateLink: () =>
    call(t.app, 'PUT', `/api/affiliate/links/${affiliateLinkId}`, { token: affiliateToken, body: { name: 'Renamed' } }),
  recordAffiliateClick: () =>
    call(t.app, 'POST', '/api/affiliate/click', {
      body: { code: 'contract-link', unique: true },
      headers: { 'user-agent': 'Mozilla/5.0' },
    }),
  listAffiliateLinkUsers: () =>
    call(t.app, 'GET', `/api/affiliate/links/${affiliateLinkId}/users`, { token: affiliateToken }),
  listAffiliateLinkAffiliators: () =>
    call(t.app, 'GET', `/api/affiliate/links/${affiliateLinkId}/affiliators`, { token: affiliateToken }),
  getAffiliateEarnings: () => call(t.app, 'GET', '/api/affiliate/earnings', { token: affiliateToken }),
  archiveAffiliateLink: () =>
    call(t.app, 'DELETE', `/api/affiliate/links/${affiliateLinkId}`, { token: affiliateToken }),
  affiliateLogout: () => call(t.app, 'POST', '/api/affiliate/logout', { token: affiliateToken }),
  login: (s) => call(t.app, 'POST', '/api/auth/login', { body: { email: s.email, password: 'long enough' } }),
  getOnboardingFormData: (s) => call(t.app, 'GET', '/api/atelier/onboarding/form-data', { token: s.token }),
  listCountries: (s) => call(t.app, 'GET', '/api/atelier/onboarding/countries', { token: s.token }),
  detectCountry: (s) =>
    call(t.app, 'GET', '/api/atelier/onboarding/detect-country', {
      token: s.token,
      headers: { 'accept-language': 'de-DE' },
    }),
  saveUserCountry: (s) =>
    call(t.app, 'POST', '/api/atelier/onboarding/save-user-country', { token: s.token, body: { country: 276 } }),
  saveContactInformation: (s) =>
    call(t.app, 'POST', '/api/atelier/onboarding/save-contact-information', {
      token: s.token,
      body: {
        organization_name: 'Acme',
        legal_name: 'Contract',
        street_address: 'Main 1',
        city: 'Berlin',
        province: 'Berlin',
        postal_code: '10115',
      },
    }),
  savePaymentInformation: async (s) => {
    const form = await call(t.app, 'GET', '/api/atelier/onboarding/form-data', { token: s.token });
    const contact = (form.body?.form_data as { contact_information: { id: string } }).contact_information;
    return call(t.app, 'POST', '/api/atelier/onboarding/save-payment-information', {
      token: s.token,
      body: {
        contact_information_id: contact.id,
        card_number: '4242424242424242',
        expiry_date: '12/35',
        security_code: '123',
        cardholder_name: 'Contract',
        same_billing_address: true,
      },
    });
  },
  startFree: (s) => call(t.app, 'POST', '/api/atelier/onboarding/start-free', { token: s.token }),
  getCurrentUser: (s) => call(t.app, 'GET', '/api/auth/me/extended', { token: s.token }),
  updateCurrentUser: (s) =>
    call(t.app, 'PATCH', '/api/auth/me', { token: s.token, body: { fullname: 'Contract Person' } }),
  getAuthCredits: (s) => call(t.app, 'GET', '/api/auth/credits', { token: s.token }),
  authenticate: (s) => call(t.app, 'POST', '/api/authenticate', { token: s.token }),
  getConfig: () => call(t.app, 'GET', '/api/options/config'),
  // The code GitHub's authorize page gives for the app's return address.
  identityCallback: async () => {
    const config = await call(paid.app, 'GET', '/api/options/config');
    const [offered] = config.body?.SIGN_IN_PROVIDERS as { authorize_url: string }[];
    const code = gitHub.issueCode(new URL(offered!.authorize_url).searchParams.get('redirect_uri')!);
    return call(paid.app, 'POST', '/api/github/callback', { body: { code } });
  },
  logoutSession: async (s) => call(t.app, 'POST', '/api/logout', { token: (await signIn(s.email)).token }),
  logout: async (s) => call(t.app, 'POST', '/api/auth/logout', { token: (await signIn(s.email)).token }),
  listModels: () => call(t.app, 'GET', '/api/options/models'),
  listAgents: () => call(t.app, 'GET', '/api/options/agents'),
  listSecurityAnalyzers: () => call(t.app, 'GET', '/api/options/security-analyzers'),
  saveSettings: (s) =>
    call(t.app, 'POST', '/api/settings', {
      token: s.token,
      body: { llm_model: 'openai/gpt-4o', llm_api_key: 'sk-x', provider_tokens: { github: { token: 'ghp_x' } } },
    }),
  getSettings: (s) => call(t.app, 'GET', '/api/settings', { token: s.token }),
  getGitUser: () => gitCall('/api/user/info'),
  listRepositories: () => gitCall('/api/user/repositories?per_page=1'),
  searchRepositories: () => gitCall('/api/user/search/repositories?query=app'),
  listBranches: () => gitCall('/api/user/repository/branches?repository=octo/app'),
  listInstallations: () => gitCall('/api/user/installations?provider=github'),
  listRepositoryMicroagents: () => gitCall('/api/user/repository/octo/app/microagents'),
  getRepositoryMicroagentContent: () =>
    gitCall('/api/user/repository/octo/app/microagents/content?file_path=.openhands/microagents/repo.md'),
  // Self-hosted installations only (the hosted service answers 404): asked of the oss app, with
  // a model that needs a base URL, so the answer comes without calling out.
  testModelConnection: async (s) => {
    await call(t.app, 'POST', '/api/settings/test-connection', {
      token: s.token,
      body: { llm_model: 'openai/gpt-4o' },
    });
    return call(oss.app, 'POST', '/api/settings/test-connection', { body: { llm_model: 'ollama/llama3' } });
  },
  checkMcpServers: (s) => call(t.app, 'POST', '/api/settings/mcp-check', { token: s.token }),
  unsetProviderTokens: (s) => call(t.app, 'POST', '/api/unset-provider-tokens', { token: s.token }),
  createSecret: (s) =>
    call(t.app, 'POST', '/api/secrets', { token: s.token, body: { name: 'API_TOKEN', value: 'v', description: 'd' } }),
  listSecrets: (s) => call(t.app, 'GET', '/api/secrets', { token: s.token }),
  updateSecret: (s) => call(t.app, 'PUT', '/api/secrets/API_TOKEN', { token: s.token, body: { description: 'e' } }),
  deleteSecret: (s) => call(t.app, 'DELETE', '/api/secrets/API_TOKEN', { token: s.token }),
  createApiKey: (s) => call(t.app, 'POST', '/api/keys', { token: s.token, body: { name: 'contract' } }),
  listApiKeys: (s) => call(t.app, 'GET', '/api/keys', { token: s.token }),
  revokeApiKey: async (s) => {
    const created = await call(t.app, 'POST', '/api/keys', { token: s.token, body: { name: 'to revoke' } });
    return call(t.app, 'DELETE', `/api/keys/${created.body?.id as string}`, { token: s.token });
  },
  saveLayout: (s) => call(t.app, 'PUT', '/api/user/layouts/Mine', { token: s.token, body: { layout: { global: {} } } }),
  listLayouts: (s) => call(t.app, 'GET', '/api/user/layouts', { token: s.token }),
  deleteLayout: (s) => call(t.app, 'DELETE', '/api/user/layouts/Mine', { token: s.token }),
  createConversation: async (s) => {
    const userId = (await findUserId(t.db, s.email)) as string;
    await giveCredit(t.db, userId, 1_000_000n, 'contract');
    const created = await call(t.app, 'POST', '/api/conversations', {
      token: s.token,
      body: { initial_user_msg: 'hi' },
    });
    conversation = await waitRunning(t.app, s.token, created.body?.conversation_id as string);
  },
  listConversations: (s) => call(t.app, 'GET', '/api/conversations?limit=5', { token: s.token }),
  getConversation: (s) => call(t.app, 'GET', on(''), { token: s.token }),
  updateConversation: (s) => call(t.app, 'PATCH', on(''), { token: s.token, body: { title: 'Contract' } }),
  startConversation: (s) => call(t.app, 'POST', on('/start'), { token: s.token }),
  saveFile: (s) => call(t.app, 'POST', on('/save-file'), { token: s.token, body: { path: 'a.md', content: '# A' } }),
  uploadFiles: (s) =>
    t.app.http.inject({
      method: 'POST',
      url: on('/upload-files'),
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'multipart/form-data; boundary=b' },
      payload: '--b\r\nContent-Disposition: form-data; name="files"; filename="b.txt"\r\n\r\nB\r\n--b--\r\n',
    }),
  listEvents: (s) => call(t.app, 'GET', on('/events?limit=2'), { token: s.token }),
  forkConversation: (s) => call(t.app, 'POST', on('/fork'), { token: s.token, body: { event_id: 0 } }),
  downloadWorkspaceZip: (s) =>
    t.app.http.inject({ method: 'GET', url: on('/zip-directory'), headers: { authorization: `Bearer ${s.token}` } }),
  getWebHosts: (s) => call(t.app, 'GET', on('/web-hosts'), { token: s.token }),
  getVscodeUrl: (s) => call(t.app, 'GET', on('/vscode-url'), { token: s.token }),
  getRuntimeConfig: (s) => call(t.app, 'GET', on('/config'), { token: s.token }),
  getTrajectory: (s) => call(t.app, 'GET', on('/trajectory'), { token: s.token }),
  getGitChanges: (s) => call(t.app, 'GET', on('/git/changes'), { token: s.token }),
  getGitDiff: (s) => call(t.app, 'GET', on('/git/diff?path=a.md'), { token: s.token }),
  getConversationMicroagents: (s) => call(t.app, 'GET', on('/microagents'), { token: s.token }),
  getRememberPrompt: (s) => call(t.app, 'GET', on('/remember-prompt?event_id=0'), { token: s.token }),
  listFiles: (s) => call(t.app, 'GET', on('/list-files'), { token: s.token }),
  startServedApps: async (s) => {
    // An app that served a port and ended: it is offered, and started, again.
    const running = t.app.modules.conversations.manager.session(conversation?.conversation_id ?? '');
    await running?.runCommand({
      command: '(python3 -m http.server $APP_PORT_2 --bind 127.0.0.1 >/dev/null 2>&1 &); sleep 1',
    });
    await call(t.app, 'GET', on('/web-hosts'), { token: s.token });
    await running?.runCommand({ command: 'pkill -f http.server; sleep 0.5' });
    return call(t.app, 'POST', on('/web-hosts/start'), { token: s.token });
  },
  listTerminals: (s) => call(t.app, 'GET', on('/terminals'), { token: s.token }),
  openTerminal: (s) => call(t.app, 'POST', on('/terminals'), { token: s.token, body: { cols: 80, rows: 24 } }),
  closeTerminal: async (s) => {
    const opened = await call(t.app, 'POST', on('/terminals'), { token: s.token, body: { cols: 80, rows: 24 } });
    return call(t.app, 'DELETE', on(`/terminals/${opened.body?.id as string}`), { token: s.token });
  },
  selectFile: (s) => call(t.app, 'GET', on('/select-file?file=a.md'), { token: s.token }),
  submitEventFeedback: (s) =>
    call(t.app, 'POST', '/feedback/conversation', {
      token: s.token,
      body: {
        conversation_id: conversation?.conversation_id,
        event_id: 0,
        rating: 5,
        metadata: { source: 'likert-scale' },
      },
    }),
  getEventFeedback: (s) =>
    call(t.app, 'GET', `/feedback/conversation/${conversation?.conversation_id ?? 'none'}/0`, { token: s.token }),
  getConversationFeedbackBatch: (s) =>
    call(t.app, 'GET', `/feedback/conversation/${conversation?.conversation_id ?? 'none'}/batch`, { token: s.token }),
  submitTrajectoryFeedback: (s) =>
    call(t.app, 'POST', on('/submit-feedback'), {
      token: s.token,
      body: { polarity: 'positive', permissions: 'private', feedback: 'Good' },
    }),
  getBillingCredits: (s) => call(t.app, 'GET', '/api/billing/credits', { token: s.token }),
  // After savePaymentInformation saved a test card.
  purchaseCredits: (s) => call(t.app, 'POST', '/api/auth/purchase-credits', { token: s.token, body: { amount: 25 } }),
  createCheckoutSession: async () =>
    call(paid.app, 'POST', '/api/billing/create-checkout-session', {
      token: (await paidBuyer()).token,
      body: { amount: 25 },
    }),
  createOnboardingCardSetupSession: async () => {
    const user = await signUp(paid.app, paid.db, 'setup-session@acme.example', { onboarded: false });
    return call(paid.app, 'POST', '/api/atelier/onboarding/card-setup-session', { token: user.token });
  },
  saveCardSetup: async () => {
    const { token, sessionId } = await setUpOnStripePage('setup@acme.example', '4242424242424242', 'onboarding');
    return call(paid.app, 'POST', '/api/atelier/onboarding/save-card-setup', {
      token,
      body: { contact_information_id: await saveOnboardingContact(paid.app, token), setup_session_id: sessionId },
    });
  },
  claimCreditsWithCardSetup: async () => {
    const { token, sessionId } = await setUpOnStripePage('claim-setup@acme.example', '5555555555554444', 'claim');
    return call(paid.app, 'POST', '/api/auth/claim/card-setup', {
      token,
      body: { setup_session_id: sessionId, billing_address: 'Main 1', acceptTerms: true },
    });
  },
  createCustomerSetupSession: async () =>
    call(paid.app, 'POST', '/api/billing/create-customer-setup-session', { token: (await paidBuyer()).token }),
  receivePaymentWebhook: async () => {
    const event = stripe.signedEvent('customer.created', { id: 'cus_contract', object: 'customer' });
    return paid.app.http.inject({
      method: 'POST',
      url: '/api/billing/webhook',
      payload: event.payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
    });
  },
  listOtherTransactions: (s) => call(t.app, 'GET', '/api/auth/transactions/other', { token: s.token }),
  listConversationGroupTransactions: (s) =>
    call(t.app, 'GET', '/api/auth/transactions/conversation-groups', { token: s.token }),
  listCategoryTransactions: (s) =>
    call(t.app, 'GET', `/api/auth/transactions/category/${conversation?.conversation_id ?? 'none'}?category=llm`, {
      token: s.token,
    }),
  listDeployments: (s) =>
    call(t.app, 'GET', `/api/deployments/${conversation?.conversation_id ?? 'none'}`, { token: s.token }),
  // A droplet on the local DigitalOcean, made as the DevOps agent makes one, then deleted through the API.
  deleteDeployment: async () => {
    const buyer = await paidBuyer();
    const created = await call(paid.app, 'POST', '/api/conversations', { token: buyer.token, body: {} });
    const id = created.body?.conversation_id as string;
    await call(paid.app, 'POST', `/api/conversations/${id}/stop`, { token: buyer.token });
    await paid.app.modules.deployments.deploy(buyer.id, {
      conversationId: id,
      name: 'contract-1',
      size: 's-1vcpu-1gb',
      region: null,
      environment: 'staging',
      app: { archive: gzipSync(Buffer.from('app')), start: 'node server.js', port: 8080 },
    });
    return call(paid.app, 'DELETE', `/api/deployments/${id}/contract-1`, { token: buyer.token });
  },
  getDevopsHistory: (s) =>
    call(t.app, 'GET', `/api/devops-agent/session/${conversation?.conversation_id ?? 'none'}/history`, {
      token: s.token,
    }),
  // On a running conversation of the oss app, whose model is the fake one.
  executeDevops: async () => {
    await call(oss.app, 'POST', '/api/settings', {
      body: { llm_model: 'openai/fake-model', llm_base_url: llmUrl, llm_api_key: 'fake-key' },
    });
    const created = await call(oss.app, 'POST', '/api/conversations', { body: {} });
    const id = created.body?.conversation_id as string;
    await waitRunning(oss.app, '', id);
    llm.enqueue(reply.text('Hello! What shall I deploy?'));
    const answered = await call(oss.app, 'POST', '/api/devops-agent/execute', {
      body: { session_id: id, user_message: 'start' },
    });
    await call(oss.app, 'POST', `/api/conversations/${id}/stop`);
    return answered;
  },
  createOnboardingChat: () => call(t.app, 'POST', '/api/onboarding-chat', { ip: '192.0.2.50' }),
  claimOnboardingChat: async (s) => {
    const opened = await call(t.app, 'POST', '/api/onboarding-chat', { ip: '192.0.2.51' });
    const { chat_id: id, chat_token: chatToken } = opened.body as { chat_id: string; chat_token: string };
    return call(t.app, 'POST', `/api/onboarding-chat/${id}/claim`, { token: s.token, body: { chat_token: chatToken } });
  },
  uploadOnboardingChatFiles: async () => {
    const opened = await call(t.app, 'POST', '/api/onboarding-chat', { ip: '192.0.2.52' });
    const { chat_id: id, chat_token: chatToken } = opened.body as { chat_id: string; chat_token: string };
    return t.app.http.inject({
      method: 'POST',
      url: `/api/onboarding-chat/${id}/files`,
      headers: { 'x-chat-token': chatToken, 'content-type': 'multipart/form-data; boundary=b' },
      payload: '--b\r\nContent-Disposition: form-data; name="files"; filename="b.txt"\r\n\r\nB\r\n--b--\r\n',
    });
  },
  stopConversation: (s) => call(t.app, 'POST', on('/stop'), { token: s.token }),
  deleteConversation: (s) => call(t.app, 'DELETE', on(''), { token: s.token }),
};

/** The conversation the scenarios above create and then work on. */
let conversation: { conversation_id: string } | undefined;
const on = (suffix: string) => `/api/conversations/${conversation?.conversation_id ?? 'none'}${suffix}`;

async function signIn(email: string): Promise<Session> {
  const response = await call(t.app, 'POST', '/api/auth/login', { body: { email, password: 'long enough' } });
  return { token: response.body?.access_token as string, email };
}

describe('the contract', () => {
  it('binds every handler to a documented operation and lists what is implemented', () => {
    const documented = new Set(t.app.operations.map((o) => o.operationId));
    expect([...t.app.implemented].filter((id) => !documented.has(id))).toEqual([]);
    const byTag = new Map<string, { implemented: string[]; pending: string[] }>();
    for (const op of t.app.operations) {
      const entry = byTag.get(op.tag) ?? { implemented: [], pending: [] };
      (t.app.implemented.has(op.operationId) ? entry.implemented : entry.pending).push(op.operationId);
      byTag.set(op.tag, entry);
    }
    console.log(
      `Operations implemented: ${t.app.implemented.size} of ${t.app.operations.length}\n` +
        [...byTag]
          .map(
            ([tag, e]) =>
              `  ${tag.padEnd(14)} ${e.implemented.length}/${e.implemented.length + e.pending.length}  ${e.implemented.join(', ')}`,
          )
          .join('\n'),
    );
  });

  it('answers every implemented operation within its documented schema', async () => {
    await call(t.app, 'POST', '/api/auth/register', {
      body: { name: 'Contract', email: 'contract@acme.example', password: 'long enough' },
    });
    const session = await signIn('contract@acme.example');
    const missing = [...t.app.implemented].filter((id) => !scenarios[id]);
    expect(missing, 'implemented operations without a contract scenario').toEqual([]);
    for (const run of Object.values(scenarios)) await run(session);
    const succeeded = [...t.app.implemented].filter((id) =>
      [t.app, oss.app, paid.app].some((app) => [...(app.contract?.seen.get(id) ?? [])].some((s) => s < 300)),
    );
    expect(succeeded.sort()).toEqual([...t.app.implemented].sort());
    expect(t.app.contract?.violations).toEqual([]);
    expect(oss.app.contract?.violations).toEqual([]);
    expect(paid.app.contract?.violations).toEqual([]);
  });

  it('answers 501 with a detail on every operation not implemented yet, after validating the request', async () => {
    const session = await signIn('contract@acme.example');
    for (const op of t.app.operations.filter((o) => !t.app.implemented.has(o.operationId))) {
      const params = (sample(op.request.params) ?? {}) as Record<string, string>;
      const url = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(params[name] ?? 'x')));
      const query = new URLSearchParams(
        Object.entries((sample(op.request.querystring) ?? {}) as Record<string, string>).map(([k, v]) => [
          k,
          String(v),
        ]),
      );
      const response = await t.app.http.inject({
        method: op.method as 'GET',
        url: query.size ? `${url}?${query}` : url,
        headers: { authorization: `Bearer ${session.token}`, 'x-session-api-key': 'x' },
        ...(op.request.body ? { payload: sample(op.request.body) as object } : {}),
        ...(op.request.bodyType === 'multipart/form-data'
          ? {
              payload: '',
              headers: { authorization: `Bearer ${session.token}`, 'content-type': 'multipart/form-data; boundary=x' },
            }
          : {}),
      });
      const expected = op.security.includes('bearer') || op.security.length === 0 ? 501 : [401, 501];
      expect.soft({ op: op.operationId, status: response.statusCode, body: response.json() }).toMatchObject({
        op: op.operationId,
        status: Array.isArray(expected) ? expect.toBeOneOf(expected) : expected,
        body: { detail: expect.any(String) },
      });
    }
  });
});
