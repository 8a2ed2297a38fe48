import { useNavigate } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { referralMachine, selectUnknownCode, type ClickReport } from '../../../machines/referral.ts';
import { dataOf } from '../../api/client.ts';
import { AFFILIATE_CODE_KEY, storedAffiliateCode } from '../../app/local-data.ts';
import { apiClient } from '../../app/services.ts';
import { PageSpinner } from '../../ui/index.ts';

/** POST /api/affiliate/click, on the affiliate API's host when the server names one. */
async function reportClick(base: string, report: ClickReport) {
  if (!base) return dataOf(apiClient.POST('/api/affiliate/click', { body: report }));
  const response = await fetch(`${base.replace(/\/$/, '')}/api/affiliate/click`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(report),
  });
  if (!response.ok)
    throw Object.assign(new Error(`the click was not recorded (${response.status})`), { status: response.status });
  return response.json() as Promise<unknown>;
}

/**
 * /{affiliateCode}: reports the click, keeps the code and goes on to the home page; a code no
 * link has shows `unknown` (the not-found page) instead.
 */
export function ReferralPage(props: { code: string; affiliateApiUrl: string; unknown: ReactNode }) {
  const { code, affiliateApiUrl } = props;
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Read before the machine keeps the new code: `unique` compares with what was kept before.
  const [previous] = useMemo(() => [storedAffiliateCode()], []);
  const referral = useActorRef(
    referralMachine.provide({
      actors: { reportClick: fromPromise(({ input }) => reportClick(affiliateApiUrl, input)) },
      actions: {
        keepCode: (_, kept) => localStorage.setItem(AFFILIATE_CODE_KEY, kept),
        logFailure: (_, error) => console.warn('the referral click was not recorded', error),
        goHome: () => void navigate({ to: '/', replace: true }),
      },
    }),
    { input: { code, previous } },
  );
  const unknownCode = useSelector(referral, selectUnknownCode);
  if (unknownCode) return props.unknown;
  return <PageSpinner label={t('referral.redirecting')} />;
}
