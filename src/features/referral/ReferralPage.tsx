import { useNavigate } from '@tanstack/react-router';
import { useActorRef } from '@xstate/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import { referralMachine, type ClickReport } from '../../../machines/referral.ts';
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
  if (!response.ok) throw new Error(`the click was not recorded (${response.status})`);
  return response.json() as Promise<unknown>;
}

/** /{affiliateCode}: keeps the code, reports the click, and goes on to the home page. */
export function ReferralPage({ code, affiliateApiUrl }: { code: string; affiliateApiUrl: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const logic = useMemo(
    () =>
      referralMachine.provide({
        actors: { reportClick: fromPromise(({ input }) => reportClick(affiliateApiUrl, input)) },
        actions: {
          keepCode: (_, kept) => localStorage.setItem(AFFILIATE_CODE_KEY, kept),
          logFailure: (_, error) => console.warn('the referral click was not recorded', error),
          goHome: () => void navigate({ to: '/', replace: true }),
        },
      }),
    [affiliateApiUrl, navigate],
  );
  // Read before the machine keeps the new code: `unique` compares with what was kept before.
  const [previous] = useMemo(() => [storedAffiliateCode()], []);
  useActorRef(logic, { input: { code, previous } });
  return <PageSpinner label={t('referral.redirecting')} />;
}
