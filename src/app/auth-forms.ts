import { useRouter } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { fromPromise } from 'xstate';
import { registrationMachine } from '../../machines/registration.ts';
import { signInMachine } from '../../machines/sign-in.ts';
import type { RegistrationRequest, RegistrationResult } from '../api/client.ts';
import { storedAffiliateCode } from './local-data.ts';
import { requests } from './services.ts';
import { logIn, SessionContext, type SessionActor } from './session.ts';

// The Sign In and Sign Up forms' machines, bound to the session and the API. Apart from the
// session's own module, so they load with the auth dialog's forms, not with every page.

/** The Sign In form, handing valid credentials to the session. */
export function createSignInLogic(session: SessionActor) {
  return signInMachine.provide({
    actions: { submitCredentials: (_, credentials) => session.send({ type: 'LOG_IN', credentials }) },
  });
}

/** The Sign Up form: registers through the API, then hands the token to the session. */
export function createRegistrationLogic(session: SessionActor, navigation: { showDashboard(): void }) {
  return registrationMachine.provide({
    actors: {
      register: fromPromise<RegistrationResult, RegistrationRequest>(({ input }) => requests.register(input)),
      logIn,
    },
    actions: {
      signIn: (_, obtained) => session.send({ type: 'SIGNED_IN', obtained }),
      closeDialog: () => session.send({ type: 'CLOSE_DIALOG' }),
      showDashboard: () => navigation.showDashboard(),
    },
  });
}

/** A Sign In form actor for the lifetime of the calling component. */
export function useSignInForm() {
  const session = SessionContext.useActorRef();
  return useActorRef(createSignInLogic(session));
}

/** A Sign Up form actor for the lifetime of the calling component, with the stored referral code. */
export function useRegistrationForm() {
  const session = SessionContext.useActorRef();
  const router = useRouter();
  return useActorRef(
    createRegistrationLogic(session, { showDashboard: () => void router.navigate({ to: '/dashboard' }) }),
    { input: { affiliateCode: storedAffiliateCode() } },
  );
}
