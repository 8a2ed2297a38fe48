import { useNavigate } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import i18next from 'i18next';
import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { affiliateSessionMachine, type AffiliateSessionSnapshot } from '../../../machines/affiliate-session.ts';
import { ApiError } from '../../api/errors.ts';
import { queryClient, showErrorToast } from '../../app/services.ts';
import { affiliateKeys, affiliateLogin, createAffiliateRequests, type AffiliateRequests } from './requests.ts';

type AffiliateSessionActor = ActorRefFrom<typeof affiliateSessionMachine>;
const SessionActor = createContext<AffiliateSessionActor | null>(null);
const Requests = createContext<AffiliateRequests | null>(null);

function useRequired<T>(value: T | null, name: string): T {
  if (value === null) throw new Error(`${name} is used outside AffiliateSessionProvider`);
  return value;
}

export const useAffiliateSession = () => useRequired(useContext(SessionActor), 'useAffiliateSession');
export const useAffiliateRequests = () => useRequired(useContext(Requests), 'useAffiliateRequests');
export function useAffiliateSelector<T>(select: (snapshot: AffiliateSessionSnapshot) => T): T {
  return useSelector(useAffiliateSession(), select);
}

/** The affiliate session of /affiliate and /affiliate/dashboard, bound to the affiliate API and this browser's storage. */
export function AffiliateSessionProvider({ apiUrl, children }: { apiUrl: string; children: ReactNode }) {
  const navigate = useNavigate();
  const requests = useMemo(() => createAffiliateRequests(apiUrl), [apiUrl]);
  const session = useActorRef(
    affiliateSessionMachine.provide({
      actors: {
        loadAffiliate: fromPromise(() => requests.me()),
        logIn: fromPromise(async ({ input }) => {
          const answer = await requests.logIn({
            email: input.email,
            password: input.password,
            remember_me: input.rememberMe,
          });
          return { token: answer.access_token, affiliateId: answer.affiliate_id, rememberMe: input.rememberMe };
        }),
        logOut: fromPromise(async () => {
          await requests.logOut();
        }),
      },
      actions: {
        storeLogin: (_, { token, affiliateId, rememberMe }) => {
          affiliateLogin.tokens.save(token, rememberMe);
          affiliateLogin.keepAffiliateId(affiliateId);
        },
        clearStoredLogin: () => {
          affiliateLogin.clear();
          queryClient.removeQueries({ queryKey: affiliateKeys.all });
        },
        announceFetchFailure: () => showErrorToast(i18next.t('affiliate:errors.fetchAffiliate')),
        // §8: the server's detail, else 'Login failed'.
        announceLoginFailure: (_, error) =>
          showErrorToast((error instanceof ApiError && error.message) || i18next.t('affiliate:login.toastFallback')),
        goToAffiliatePage: () => void navigate({ to: '/affiliate' }),
      },
    }),
    { input: { startedWithToken: affiliateLogin.tokens.read() !== null } },
  );
  useEffect(() => requests.whenUnauthorized(() => session.send({ type: 'UNAUTHORIZED' })), [requests, session]);
  return (
    <Requests.Provider value={requests}>
      <SessionActor.Provider value={session}>{children}</SessionActor.Provider>
    </Requests.Provider>
  );
}
