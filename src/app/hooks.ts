import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { useEffect } from 'react';
import type { User } from '../../machines/session.ts';
import { configQuery, currentUserQuery, refreshCurrentUser, settingsQuery } from '../api/queries.ts';
import { isSupportedLanguage } from '../../locales/languages.ts';
import { requests } from './services.ts';

/** The configuration the server gives the client (mode, feature flags, support email...). */
export function useClientConfig() {
  return useQuery(configQuery(requests)).data;
}

/**
 * The signed-in user as the query cache has it (null: nobody is signed in, or not yet). The session
 * machine decides when it is read; views only select it.
 */
export function useCurrentUser(): User | null {
  return useQuery({ ...currentUserQuery(requests), enabled: false }).data ?? null;
}

/** The signed-in user's settings (data null: never saved); idle while nobody is signed in. */
export function useSettings() {
  const signedIn = useCurrentUser() !== null;
  return useQuery({ ...settingsQuery(requests), enabled: signedIn });
}

/** The language saved in the settings wins over the browser's once the settings arrive. */
export function useSavedLanguage() {
  const language = useSettings().data?.language;
  useEffect(() => {
    if (language && isSupportedLanguage(language) && language !== i18next.resolvedLanguage)
      void i18next.changeLanguage(language);
  }, [language]);
}

/** Mails the signed-in user a new verification link; its failure is shown where it was asked for. */
export function useResendVerification() {
  return useMutation({ mutationFn: requests.resendEmailVerification, meta: { disableToast: true } });
}

/** Opens a verification link's token; once verified, the account is read again everywhere. */
export function useVerifyEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requests.verifyEmail,
    onSuccess: () => refreshCurrentUser(queryClient),
    meta: { disableToast: true },
  });
}

/** Trades a git host's sign-in code for a session; its failure is shown on the return page. */
export function useIdentityCallback() {
  return useMutation({
    mutationFn: ({ identity, body }: { identity: string; body: Parameters<typeof requests.identityCallback>[1] }) =>
      requests.identityCallback(identity, body),
    meta: { disableToast: true },
  });
}

/** Whether the signed-in user's email still waits for verification (never in oss mode, whose user has none to verify). */
export function useEmailUnverified() {
  return useCurrentUser()?.email_verified === false;
}

/** Signed in with an account that is not active yet: held at /registration-onboarding. */
export function useHeldForOnboarding() {
  return useCurrentUser()?.is_active === false;
}
