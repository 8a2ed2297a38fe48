import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local HTTP server speaking the few Stripe API endpoints the platform uses, shaped like
 * Stripe's answers (objects, form-encoded requests, idempotency keys, card errors with HTTP 402):
 * the peer the `stripe` package talks to in tests, so no network or account is needed.
 * As on Stripe, the declining test cards (0002, 9995, …) cannot be attached to a customer nor set
 * up, and 4000 0000 0000 0341 attaches and is declined when charged.
 */
export async function startStripeServer(options: { secretKey: string; webhookSecret: string }) {
  let counter = 0;
  const id = (prefix: string) => `${prefix}_${String(++counter).padStart(14, '0')}`;
  const customers = new Map<string, Record<string, unknown>>();
  const methods = new Map<string, { object: Record<string, unknown>; number: string }>();
  const sessions = new Map<string, Record<string, unknown>>();
  const setupIntents = new Map<string, Record<string, unknown>>();
  const paymentIntents = new Map<string, Record<string, unknown>>();
  /** Paths whose next answers are lost after the work is done (the connection drops). */
  const dropped = new Map<string, number>();
  const replies = new Map<string, { status: number; body: unknown }>();
  /** Every request as Stripe would log it: method, path and form fields. */
  const requests: { method: string; path: string; form: Record<string, string> }[] = [];

  const cardError = (message: string, code: string) => ({
    status: 402,
    body: { error: { type: 'card_error', code, decline_code: 'generic_decline', message } },
  });
  /** Stripe's declining test cards, refused when attached or set up. */
  const DECLINED_AT_SETUP: Record<string, string> = {
    '4000000000000002': 'Your card was declined.',
    '4000000000009995': 'Your card has insufficient funds.',
    '4000000000000069': 'Your card has expired.',
    '4000000000000127': "Your card's security code is incorrect.",
  };
  const DECLINED_ON_CHARGE = '4000000000000341';
  const declinedAtSetup = (number: string) => {
    const message = DECLINED_AT_SETUP[number];
    return message ? cardError(message, 'card_declined') : null;
  };
  const metadataOf = (form: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(form).flatMap(([key, value]) => {
        const name = /^metadata\[(.+)\]$/.exec(key)?.[1];
        return name ? [[name, value]] : [];
      }),
    );
  const notFound = (what: string) => ({
    status: 404,
    body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } },
  });

  function route(method: string, path: string, form: Record<string, string>): { status: number; body: unknown } {
    if (method === 'POST' && path === '/v1/customers') {
      const customer = {
        id: id('cus'),
        object: 'customer',
        email: form.email,
        name: form.name,
        metadata: { user_id: form['metadata[user_id]'] },
      };
      customers.set(customer.id, customer);
      return { status: 200, body: customer };
    }
    if (method === 'POST' && path === '/v1/payment_methods') {
      const number = form['card[number]'] ?? '';
      const object = {
        id: id('pm'),
        object: 'payment_method',
        type: 'card',
        customer: null,
        billing_details: { name: form['billing_details[name]'] ?? null },
        card: {
          brand: number.startsWith('4') ? 'visa' : number.startsWith('5') ? 'mastercard' : 'unknown',
          last4: number.slice(-4),
          // As Stripe's: the same number gives the same fingerprint, which does not reveal it.
          fingerprint: createHash('sha256').update(`fingerprint:${number}`).digest('base64url').slice(0, 16),
          exp_month: Number(form['card[exp_month]']),
          exp_year: Number(form['card[exp_year]']),
        },
      };
      methods.set(object.id, { object, number });
      return { status: 200, body: object };
    }
    const attach = /^\/v1\/payment_methods\/([^/]+)\/attach$/.exec(path);
    if (method === 'POST' && attach) {
      const found = methods.get(attach[1] ?? '');
      if (!found) return notFound('payment_method');
      if (!customers.has(form.customer ?? '')) return notFound('customer');
      const declined = declinedAtSetup(found.number);
      if (declined) return declined;
      found.object.customer = form.customer;
      return { status: 200, body: found.object };
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      const found = methods.get(form.payment_method ?? '');
      if (!found) return notFound('payment_method');
      if (found.number === DECLINED_ON_CHARGE || DECLINED_AT_SETUP[found.number])
        return cardError('Your card was declined.', 'card_declined');
      const intent = {
        id: id('pi'),
        object: 'payment_intent',
        amount: Number(form.amount),
        amount_received: Number(form.amount),
        currency: form.currency,
        customer: form.customer,
        payment_method: form.payment_method,
        metadata: metadataOf(form),
        status: 'succeeded',
      };
      paymentIntents.set(intent.id, intent);
      return { status: 200, body: intent };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const session: Record<string, unknown> = {
        id: id('cs_test'),
        object: 'checkout.session',
        mode: form.mode,
        customer: form.customer,
        client_reference_id: form.client_reference_id ?? null,
        amount_total: form.mode === 'payment' ? Number(form['line_items[0][price_data][unit_amount]']) : null,
        currency: form.currency ?? form['line_items[0][price_data][currency]'],
        payment_status: form.mode === 'payment' ? 'unpaid' : 'no_payment_required',
        status: 'open',
        setup_intent: null,
        metadata: metadataOf(form),
        success_url: form.success_url,
        cancel_url: form.cancel_url,
      };
      session.url = `${url}/checkout/${String(session.id)}`;
      sessions.set(session.id as string, session);
      return { status: 200, body: session };
    }
    if (method === 'POST' && path === '/v1/setup_intents') {
      const found = methods.get(form.payment_method ?? '');
      if (!found) return notFound('payment_method');
      if (form.confirm === 'true') {
        const declined = declinedAtSetup(found.number);
        if (declined) return declined;
      }
      const intent = {
        id: id('seti'),
        object: 'setup_intent',
        customer: form.customer ?? null,
        payment_method: found.object.id,
        usage: form.usage ?? 'off_session',
        status: form.confirm === 'true' ? 'succeeded' : 'requires_confirmation',
      };
      setupIntents.set(intent.id, intent);
      return { status: 200, body: intent };
    }
    const checkoutSession = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && checkoutSession) {
      const session = sessions.get(checkoutSession[1] ?? '');
      if (!session) return notFound('checkout.session');
      const intent = session.setup_intent ? setupIntents.get(session.setup_intent as string) : undefined;
      if (form['expand[0]'] !== 'setup_intent.payment_method' || !intent) return { status: 200, body: session };
      const paymentMethod = methods.get(intent.payment_method as string)?.object;
      return { status: 200, body: { ...session, setup_intent: { ...intent, payment_method: paymentMethod } } };
    }
    const setupIntent = /^\/v1\/setup_intents\/([^/]+)$/.exec(path);
    if (method === 'GET' && setupIntent) {
      const intent = setupIntents.get(setupIntent[1] ?? '');
      if (!intent) return notFound('setup_intent');
      const method = methods.get(intent.payment_method as string)?.object;
      return {
        status: 200,
        body: form['expand[0]'] === 'payment_method' ? { ...intent, payment_method: method } : intent,
      };
    }
    return notFound(`route ${method} ${path}`);
  }

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const target = new URL(request.url ?? '/', 'http://stripe.local');
      const text = request.method === 'GET' ? target.search.slice(1) : Buffer.concat(chunks).toString('utf8');
      const form = Object.fromEntries(new URLSearchParams(text));
      requests.push({ method: request.method ?? '', path: target.pathname, form });
      let reply: { status: number; body: unknown };
      if (request.headers.authorization !== `Bearer ${options.secretKey}`)
        reply = {
          status: 401,
          body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } },
        };
      else {
        // Stripe answers a repeated idempotency key with the first answer.
        const key = request.headers['idempotency-key'];
        const remembered = typeof key === 'string' ? replies.get(key) : undefined;
        reply = remembered ?? route(request.method ?? 'GET', target.pathname, form);
        if (typeof key === 'string') replies.set(key, reply);
      }
      const drops = dropped.get(target.pathname) ?? 0;
      if (drops > 0) {
        dropped.set(target.pathname, drops - 1);
        request.socket.destroy();
        return;
      }
      response.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': id('req') });
      response.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** A webhook event as Stripe delivers it: the JSON body and its Stripe-Signature header. */
  function signedEvent(type: string, object: Record<string, unknown>, secret = options.webhookSecret) {
    const payload = JSON.stringify({
      id: id('evt'),
      object: 'event',
      api_version: '2025-01-01',
      created: Math.floor(Date.now() / 1000),
      type,
      data: { object },
      livemode: false,
    });
    return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
  }

  return {
    url,
    requests,
    customers,
    paymentIntents,
    /** The next `count` answers to `path` are lost once Stripe has done the work. */
    dropAnswers(path: string, count: number) {
      dropped.set(path, count);
    },
    /** The customer pays on the hosted page: the session's completion event, signed. */
    payCheckout(sessionId: string) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no checkout session ${sessionId}`);
      Object.assign(session, { payment_status: 'paid', status: 'complete', payment_intent: id('pi') });
      return signedEvent('checkout.session.completed', session);
    },
    /**
     * The customer saves `cardNumber` on the hosted setup page: its completion event, signed. A
     * card Stripe declines at setup stays on the page with Stripe's message (thrown here).
     */
    completeSetup(sessionId: string, cardNumber: string, holderName = 'Card Holder') {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no checkout session ${sessionId}`);
      const declined = declinedAtSetup(cardNumber);
      if (declined) throw new Error((declined.body as { error: { message: string } }).error.message);
      const created = route('POST', '/v1/payment_methods', {
        'card[number]': cardNumber,
        'card[exp_month]': '12',
        'card[exp_year]': '2035',
        'billing_details[name]': holderName,
      }).body as { id: string };
      route('POST', `/v1/payment_methods/${created.id}/attach`, { customer: String(session.customer) });
      const intent = { id: id('seti'), object: 'setup_intent', status: 'succeeded', payment_method: created.id };
      setupIntents.set(intent.id, intent);
      Object.assign(session, { status: 'complete', setup_intent: intent.id });
      return signedEvent('checkout.session.completed', session);
    },
    /** Where the hosted page sends the browser once done: the success URL, its session id filled in. */
    returnUrl(sessionId: string) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no checkout session ${sessionId}`);
      return String(session.success_url).replace('{CHECKOUT_SESSION_ID}', sessionId);
    },
    /** A refund made in Stripe's dashboard: its succeeded refund.created event, signed. */
    refund(paymentIntentId: string, amountCents: number) {
      return signedEvent('refund.created', {
        id: id('re'),
        object: 'refund',
        amount: amountCents,
        currency: 'usd',
        payment_intent: paymentIntentId,
        status: 'succeeded',
      });
    },
    signedEvent,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
