import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../openapi/schema.d.ts';
import { dataOf } from '../../api/client.ts';
import { refreshCurrentUser } from '../../api/queries.ts';
import { apiClient } from '../../app/services.ts';

export type ClaimRequest = components['schemas']['ClaimRequest'];

/** The free-credit calls (openapi/atelier.yaml, auth and onboarding tags). */
export const freeCreditRequests = {
  claim: (body: ClaimRequest) => dataOf(apiClient.POST('/api/auth/claim', { body })),
  /** The claim with the card Stripe's page verified (the setup session it sent the browser back with). */
  claimWithCardSetup: (body: components['schemas']['CardSetupClaimRequest']) =>
    dataOf(apiClient.POST('/api/auth/claim/card-setup', { body })),
  sendUsageAgreement: () => dataOf(apiClient.POST('/api/auth/usage-agreement')),
  signUsageAgreement: (token: string) => dataOf(apiClient.POST('/api/auth/usage-agreement/sign', { body: { token } })),
  /** Whether payment details are saved: the onboarding form's payment information. */
  hasPaymentDetails: async (signal?: AbortSignal) => {
    const form = await dataOf(
      apiClient.GET('/api/{provider}/onboarding/form-data', { params: { path: { provider: 'atelier' } }, signal }),
    );
    return Boolean(form.form_data?.contact_information?.payment_information);
  },
};

/** Signs the mailed usage agreement; signed, with more credit, the account is read again everywhere. */
export function useSignUsageAgreement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: freeCreditRequests.signUsageAgreement,
    onSuccess: () => refreshCurrentUser(queryClient),
    meta: { disableToast: true },
  });
}

export const freeCreditKeys = { paymentDetails: ['user', 'payment-details'] as const };
