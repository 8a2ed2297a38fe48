import { assign, setup, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import type { components } from '../openapi/schema.d.ts';
import type { Credentials, ObtainedToken } from './credentials.ts';
import { notProvidedAction, notProvidedPromise } from './not-provided.ts';
import { isServerRejection, messageNotice, serverNotice, type Notice } from './notice.ts';
import { emailError, isBlank, presentErrors, withoutError } from './validation.ts';

// The Sign Up form and what follows a submission.
//
// A free-mail address is not registered at once: the server answers personal_email_detected,
// the form is held and the Personal Email dialog asks. Continuing registers again as a personal
// account; choosing a company email goes back to the form. A created account is signed in
// automatically (kept across browser restarts), the dialog closes and the app shows /dashboard.

export type RegistrationRequest = components['schemas']['RegistrationRequest'];
export type RegistrationResult = components['schemas']['RegistrationResult'];

export type RegistrationField = 'name' | 'email' | 'password';
/** The contract's rule for a new password (RegistrationRequest.password minLength), shown before submitting. */
export const PASSWORD_MIN_LENGTH = 8;
export type RegistrationFieldError = 'nameRequired' | 'emailRequired' | 'emailInvalid' | 'passwordRequired';
type RegistrationErrors = Partial<Record<RegistrationField, RegistrationFieldError>>;

export type RegistrationMessage = 'registrationFailed' | 'registrationError';
export type RegistrationFailure = Notice<RegistrationMessage>;

/** The server's explanation or the generic failure; an exception gets its own message. */
export function registrationFailure(error: unknown): RegistrationFailure {
  if (!isServerRejection(error)) return messageNotice('registrationError');
  return error.message !== '' ? serverNotice(error.message) : messageNotice('registrationFailed');
}

interface RegistrationContext {
  name: string;
  email: string;
  password: string;
  /** The referral code kept from an affiliate link, if any. */
  affiliateCode: string | null;
  /** The user chose to continue with a personal (free-mail) address. */
  isPersonal: boolean;
  errors: RegistrationErrors;
  failure: RegistrationFailure | null;
}

export interface RegistrationInput {
  affiliateCode: string | null;
}

export type RegistrationEvent =
  | { type: 'FIELD_CHANGED'; field: RegistrationField; value: string }
  | { type: 'SUBMIT' }
  | { type: 'CONTINUE_WITH_PERSONAL_EMAIL' }
  | { type: 'USE_COMPANY_EMAIL' };

function registrationErrors({ name, email, password }: RegistrationContext): RegistrationErrors {
  return presentErrors({
    name: isBlank(name) ? ('nameRequired' as const) : undefined,
    email: emailError(email),
    password: isBlank(password) ? ('passwordRequired' as const) : undefined,
  });
}

export const registrationMachine = setup({
  types: {
    context: {} as RegistrationContext,
    events: {} as RegistrationEvent,
    input: {} as RegistrationInput,
  },
  actors: {
    register: notProvidedPromise<RegistrationResult, RegistrationRequest>('register'),
    logIn: notProvidedPromise<ObtainedToken, Credentials>('logIn'),
  },
  actions: {
    /** Hands the token to the session. */
    signIn: notProvidedAction<ObtainedToken>('signIn'),
    closeDialog: notProvidedAction('closeDialog'),
    showDashboard: notProvidedAction('showDashboard'),
    changeField: assign(({ context }, { field, value }: { field: RegistrationField; value: string }) => ({
      [field]: value,
      errors: withoutError(context.errors, field),
      // A new address has not been confirmed as personal.
      isPersonal: field === 'email' ? false : context.isPersonal,
    })),
    showErrors: assign(({ context }) => ({ errors: registrationErrors(context) })),
    confirmPersonalEmail: assign({ isPersonal: true }),
    /** 'Register with Company Email': the personal address goes, for the company one to be typed. */
    forgetEmail: assign({ email: '', isPersonal: false }),
    rememberFailure: assign((_, failure: RegistrationFailure) => ({ failure })),
    forgetFailure: assign({ failure: null }),
  },
  guards: {
    formIsValid: ({ context }) => Object.keys(registrationErrors(context)).length === 0,
    personalEmailDetected: (_, result: RegistrationResult) => result.personal_email_detected,
    accountCreated: (_, result: RegistrationResult) => result.id !== null,
  },
}).createMachine({
  id: 'registration',
  context: ({ input }) => ({
    name: '',
    email: '',
    password: '',
    affiliateCode: input.affiliateCode,
    isPersonal: false,
    errors: {},
    failure: null,
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        FIELD_CHANGED: { actions: { type: 'changeField', params: ({ event }) => event } },
        SUBMIT: [{ guard: 'formIsValid', target: 'registering' }, { actions: 'showErrors' }],
      },
    },
    registering: {
      entry: 'forgetFailure',
      invoke: {
        id: 'register',
        src: 'register',
        input: ({ context }) => ({
          name: context.name.trim(),
          email: context.email.trim(),
          password: context.password,
          affiliate_code: context.affiliateCode,
          is_personal: context.isPersonal,
        }),
        onDone: [
          {
            guard: { type: 'personalEmailDetected', params: ({ event }) => event.output },
            target: 'confirmingPersonalEmail',
          },
          { guard: { type: 'accountCreated', params: ({ event }) => event.output }, target: 'signingIn' },
          { target: 'editing', actions: { type: 'rememberFailure', params: messageNotice('registrationFailed') } },
        ],
        onError: {
          target: 'editing',
          actions: {
            type: 'rememberFailure',
            params: ({ event }: { event: ErrorActorEvent }) => registrationFailure(event.error),
          },
        },
      },
    },
    confirmingPersonalEmail: {
      on: {
        CONTINUE_WITH_PERSONAL_EMAIL: { target: 'registering', actions: 'confirmPersonalEmail' },
        USE_COMPANY_EMAIL: { target: 'editing', actions: 'forgetEmail' },
      },
    },
    signingIn: {
      invoke: {
        id: 'logIn',
        src: 'logIn',
        input: ({ context }) => ({ email: context.email.trim(), password: context.password, rememberMe: true }),
        onDone: {
          target: 'signedIn',
          actions: [{ type: 'signIn', params: ({ event }) => event.output }, 'closeDialog', 'showDashboard'],
        },
        onError: { target: 'signInFailed' },
      },
    },
    signedIn: { type: 'final' },
    /** The account exists but the automatic sign-in failed: the user signs in by hand. */
    signInFailed: { type: 'final' },
  },
});

type RegistrationSnapshot = SnapshotFrom<typeof registrationMachine>;

/** The form can be edited and submitted only while editing; afterwards it is held. */
export const selectIsEditing = (snapshot: RegistrationSnapshot) => snapshot.matches('editing');
export const selectIsBusy = (snapshot: RegistrationSnapshot) =>
  snapshot.matches('registering') || snapshot.matches('signingIn') || snapshot.matches('signedIn');
export const selectIsConfirmingPersonalEmail = (snapshot: RegistrationSnapshot) =>
  snapshot.matches('confirmingPersonalEmail');
export const selectSignInFailed = (snapshot: RegistrationSnapshot) => snapshot.matches('signInFailed');
