import { Link, useRouter } from '@tanstack/react-router';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors.ts';
import { useIdentityCallback } from '../../app/hooks.ts';
import { forgetOAuthState, keptOAuthReturn, storedAffiliateCode } from '../../app/local-data.ts';
import { SessionContext } from '../../app/session.ts';
import { Spinner } from '../../ui/index.ts';
import * as styles from './auth.css.ts';

export interface ExternalSignInReturn {
  code?: string;
  state?: string;
  /** The provider's refusal (e.g. access_denied when the user declined), and its words. */
  error?: string;
  error_description?: string;
}

/**
 * Where a git host sends the user back after its authorization page: the code is posted once,
 * only when this tab started that sign-in, the session takes the token, and the person is back
 * on the page where they chose the host.
 */
export function ExternalSignInPage({ identity, back }: { identity: string; back: ExternalSignInReturn }) {
  const { t } = useTranslation(['auth', 'common']);
  const provider = t(`common:gitProviders.${identity}`, { defaultValue: identity });
  const session = SessionContext.useActorRef();
  const router = useRouter();
  const signIn = useIdentityCallback();
  const { mutate } = signIn;
  const { code, state, error } = back;
  // Where the sign-in started; null when this tab did not start it.
  const returnTo = useMemo(() => keptOAuthReturn(identity, state), [identity, state]);
  const trusted = returnTo !== null;
  // The code is good for one exchange: a second run of the effect (strict mode) must not post it again.
  const posted = useRef(false);
  useEffect(() => {
    if (posted.current || !trusted || !code || error) return;
    posted.current = true;
    forgetOAuthState();
    mutate(
      { identity, body: { code, ...(state && { state }), affiliate_code: storedAffiliateCode() } },
      {
        onSuccess: (result) => {
          session.send({ type: 'SIGNED_IN', obtained: { token: result.access_token, rememberMe: true } });
          void router.navigate({ href: returnTo ?? '/dashboard', replace: true });
        },
      },
    );
  }, [trusted, returnTo, code, state, error, identity, mutate, session, router]);

  const outcome = () => {
    if (error) return t('external.refused', { provider, reason: back.error_description ?? error });
    if (!code) return t('external.missingCode');
    if (!trusted) return t('external.stateMismatch');
    if (signIn.isError) return errorText(signIn.error);
    return null;
  };
  const failure = outcome();
  return (
    <main className={styles.verifyPage}>
      <h1>{t('external.pageTitle')}</h1>
      {failure === null ? <Spinner label={t('external.signingIn', { provider })} /> : <p role="alert">{failure}</p>}
      {failure === null ? null : <Link to="/">{t('external.toHome')}</Link>}
    </main>
  );
}
