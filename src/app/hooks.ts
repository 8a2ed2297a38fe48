import { useQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { useState } from 'react';
import { configQuery } from '../api/queries.ts';
import { storedAffiliateCode } from './local-data.ts';
import { requests } from './services.ts';
import { createRegistrationLogic, createSignInLogic, SessionContext } from './session.ts';

/** The configuration the server gives the client (mode, feature flags, support email...). */
export function useClientConfig() {
  return useQuery(configQuery(requests)).data;
}

/** A Sign In form actor for the lifetime of the calling component. */
export function useSignInForm() {
  const session = SessionContext.useActorRef();
  const [logic] = useState(() => createSignInLogic(session));
  return useActorRef(logic);
}

/** A Sign Up form actor for the lifetime of the calling component, with the stored referral code. */
export function useRegistrationForm() {
  const session = SessionContext.useActorRef();
  const router = useRouter();
  const [logic] = useState(() =>
    createRegistrationLogic(session, { showDashboard: () => void router.navigate({ to: '/dashboard' }) }),
  );
  return useActorRef(logic, { input: { affiliateCode: storedAffiliateCode() } });
}
