import { isValidPhoneNumber } from 'libphonenumber-js/min';
import { assertEvent, assign, setup, type SnapshotFrom } from 'xstate';
import type { components } from '../openapi/schema.d.ts';
import type { AffiliateLogin } from './affiliate-session.ts';
import { notProvidedAction, notProvidedPromise } from './not-provided.ts';
import { isServerRejection } from './notice.ts';

// The affiliate registration form of /affiliate (public-site spec §4, "Registration"). The page's
// form checks the required fields and the email and URL types before it submits; the WhatsApp
// number must be a valid international number (country code first), else the form says so. A registered
// affiliate's id is kept and they are logged in at once with remember me on, then sent to
// /affiliate/dashboard; when that login fails, 'Registration successful! Please log in to
// continue.' shows and the login dialog opens. A refused registration opens the 'Action Failed'
// dialog with the server's detail, else the error's message, else the generic text (§8); OK
// closes it and the form keeps what was typed.

export type AffiliateRegistrationRequest = components['schemas']['AffiliateRegistrationRequest'];

/** What the form holds, as typed. */
export interface AffiliateRegistrationValues {
  full_name: string;
  email: string;
  password: string;
  whatsapp: string;
  telegram: string;
  website: string;
  youtube: string;
}

/** The request: values trimmed (not the password), empty optional fields absent, the referrer's code when one is kept. */
export function registrationRequest(
  values: AffiliateRegistrationValues,
  affiliateCode: string | null,
): AffiliateRegistrationRequest {
  const optional = (value: string) => (value.trim() === '' ? undefined : value.trim());
  const request: AffiliateRegistrationRequest = {
    full_name: values.full_name.trim(),
    email: values.email.trim(),
    password: values.password,
    whatsapp: values.whatsapp.trim(),
  };
  const extras = {
    telegram: optional(values.telegram),
    website: optional(values.website),
    youtube: optional(values.youtube),
    affiliate_code: affiliateCode ?? undefined,
  };
  for (const [key, value] of Object.entries(extras)) if (value !== undefined) Object.assign(request, { [key]: value });
  return request;
}

/** §8: the server's detail, else the error's own message, else null (the view's generic text). */
export function registrationFailureText(error: unknown): string | null {
  if (isServerRejection(error)) return error.message || null;
  return error instanceof Error && error.message ? error.message : null;
}

interface AffiliateRegistrationContext {
  affiliateCode: string | null;
  /** The last submission's WhatsApp number was not a valid phone number. */
  whatsappInvalid: boolean;
  /** The registered email and password, for the login that follows; dropped after it. */
  credentials: { email: string; password: string } | null;
  failure: string | null;
}

export type AffiliateRegistrationEvent =
  { type: 'SUBMIT'; values: AffiliateRegistrationValues } | { type: 'ACKNOWLEDGE' };

export const affiliateRegistrationMachine = setup({
  types: {
    context: {} as AffiliateRegistrationContext,
    events: {} as AffiliateRegistrationEvent,
    input: {} as { affiliateCode: string | null },
  },
  actors: {
    /** POST /api/affiliate/register; resolves to the new affiliate's id. */
    register: notProvidedPromise<{ id: string }, AffiliateRegistrationRequest>('register'),
    /** POST /api/affiliate/login with remember me on. */
    logIn: notProvidedPromise<AffiliateLogin, { email: string; password: string }>('logIn'),
  },
  guards: {
    whatsappValid: (_, values: AffiliateRegistrationValues) => isValidPhoneNumber(values.whatsapp.trim()),
  },
  actions: {
    /** Keeps affiliator_id. */
    storeAffiliateId: notProvidedAction<string>('storeAffiliateId'),
    /** Hands the login to the affiliate session, which keeps it and loads the affiliate. */
    signIn: notProvidedAction<AffiliateLogin>('signIn'),
    goToDashboard: notProvidedAction('goToDashboard'),
    /** 'Registration successful! Please log in to continue.' and the login dialog. */
    askToLogIn: notProvidedAction('askToLogIn'),
    rememberCredentials: assign((_, values: AffiliateRegistrationValues) => ({
      credentials: { email: values.email.trim(), password: values.password },
    })),
    forgetCredentials: assign({ credentials: null }),
    rememberWhatsappInvalid: assign({ whatsappInvalid: true }),
    forgetWhatsappInvalid: assign({ whatsappInvalid: false }),
    rememberFailure: assign((_, error: unknown) => ({ failure: registrationFailureText(error) })),
    forgetFailure: assign({ failure: null }),
  },
}).createMachine({
  id: 'affiliateRegistration',
  context: ({ input }) => ({
    affiliateCode: input.affiliateCode,
    whatsappInvalid: false,
    credentials: null,
    failure: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        SUBMIT: [
          {
            guard: { type: 'whatsappValid', params: ({ event }) => event.values },
            target: 'registering',
            actions: ['forgetWhatsappInvalid', { type: 'rememberCredentials', params: ({ event }) => event.values }],
          },
          { actions: 'rememberWhatsappInvalid' },
        ],
      },
    },
    registering: {
      invoke: {
        id: 'register',
        src: 'register',
        input: ({ context, event }) => {
          assertEvent(event, 'SUBMIT');
          return registrationRequest(event.values, context.affiliateCode);
        },
        onDone: {
          target: 'loggingIn',
          actions: { type: 'storeAffiliateId', params: ({ event }) => event.output.id },
        },
        onError: {
          target: 'failed',
          actions: [
            'forgetCredentials',
            { type: 'rememberFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
          ],
        },
      },
    },
    loggingIn: {
      invoke: {
        id: 'logIn',
        src: 'logIn',
        input: ({ context }) => ({
          email: context.credentials?.email ?? '',
          password: context.credentials?.password ?? '',
        }),
        onDone: {
          target: 'registered',
          actions: ['forgetCredentials', { type: 'signIn', params: ({ event }) => event.output }, 'goToDashboard'],
        },
        onError: { target: 'editing', actions: ['forgetCredentials', 'askToLogIn'] },
      },
    },
    failed: {
      on: { ACKNOWLEDGE: { target: 'editing', actions: 'forgetFailure' } },
    },
    registered: { type: 'final' },
  },
});

export type AffiliateRegistrationSnapshot = SnapshotFrom<typeof affiliateRegistrationMachine>;
export const selectRegistering = (snapshot: AffiliateRegistrationSnapshot) =>
  snapshot.matches('registering') || snapshot.matches('loggingIn') || snapshot.matches('registered');
export const selectWhatsappInvalid = (snapshot: AffiliateRegistrationSnapshot) => snapshot.context.whatsappInvalid;
export const selectFailure = (snapshot: AffiliateRegistrationSnapshot) =>
  snapshot.matches('failed') ? { text: snapshot.context.failure } : null;
