import { assign, setup } from 'xstate';
import type { Credentials } from './credentials.ts';
import { notProvidedAction } from './not-provided.ts';
import { emailError, isBlank, presentErrors, withoutError } from './validation.ts';

// The Sign In form: its values, 'Keep me signed in' (on by default) and its validation.
// A valid submission is handed to the session (`submitCredentials`), which signs in.

export type SignInField = 'email' | 'password';
export type SignInFieldError = 'emailRequired' | 'emailInvalid' | 'passwordRequired';
type SignInErrors = Partial<Record<SignInField, SignInFieldError>>;

interface SignInContext {
  email: string;
  password: string;
  rememberMe: boolean;
  errors: SignInErrors;
}

export type SignInEvent =
  | { type: 'FIELD_CHANGED'; field: SignInField; value: string }
  | { type: 'REMEMBER_ME_CHANGED'; rememberMe: boolean }
  | { type: 'SUBMIT' };

function signInErrors({ email, password }: SignInContext): SignInErrors {
  return presentErrors({
    email: emailError(email),
    password: isBlank(password) ? ('passwordRequired' as const) : undefined,
  });
}

export const signInMachine = setup({
  types: { context: {} as SignInContext, events: {} as SignInEvent },
  actions: {
    submitCredentials: notProvidedAction<Credentials>('submitCredentials'),
    changeField: assign(({ context }, { field, value }: { field: SignInField; value: string }) => ({
      [field]: value,
      errors: withoutError(context.errors, field),
    })),
    changeRememberMe: assign((_, rememberMe: boolean) => ({ rememberMe })),
    showErrors: assign(({ context }) => ({ errors: signInErrors(context) })),
  },
  guards: {
    formIsValid: ({ context }) => Object.keys(signInErrors(context)).length === 0,
  },
}).createMachine({
  id: 'signIn',
  context: { email: '', password: '', rememberMe: true, errors: {} },
  initial: 'editing',
  states: {
    editing: {
      on: {
        FIELD_CHANGED: { actions: { type: 'changeField', params: ({ event }) => event } },
        REMEMBER_ME_CHANGED: { actions: { type: 'changeRememberMe', params: ({ event }) => event.rememberMe } },
        SUBMIT: [
          {
            guard: 'formIsValid',
            actions: {
              type: 'submitCredentials',
              params: ({ context }) => ({
                email: context.email.trim(),
                password: context.password,
                rememberMe: context.rememberMe,
              }),
            },
          },
          { actions: 'showErrors' },
        ],
      },
    },
  },
});
