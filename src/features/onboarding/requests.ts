import type { ContactInput, OnboardingStart, PaymentInput } from '../../../machines/onboarding.ts';
import { dataOf } from '../../api/client.ts';
import { apiClient } from '../../app/services.ts';

// The onboarding calls of openapi/atelier.yaml, for the one provider this server runs.
const provider = { params: { path: { provider: 'atelier' } } };

export const onboardingRequests = {
  countries: async (signal?: AbortSignal) =>
    (await dataOf(apiClient.GET('/api/{provider}/onboarding/countries', { ...provider, signal }))).countries,
  /** The saved answers; the detected country when none was saved. */
  async start(): Promise<OnboardingStart> {
    const { form_data: saved } = await dataOf(apiClient.GET('/api/{provider}/onboarding/form-data', provider));
    const savedCountry = saved?.country?.country_id ?? null;
    const countryId =
      savedCountry ??
      (await dataOf(apiClient.GET('/api/{provider}/onboarding/detect-country', provider))).country?.id ??
      null;
    return { countryId, contact: saved?.contact_information ?? null, agreed: savedCountry !== null };
  },
  saveCountry: async (country: number) => {
    await dataOf(apiClient.POST('/api/{provider}/onboarding/save-user-country', { ...provider, body: { country } }));
  },
  saveContact: async (body: ContactInput) =>
    (await dataOf(apiClient.POST('/api/{provider}/onboarding/save-contact-information', { ...provider, body })))
      .contact_information,
  savePayment: async (body: PaymentInput & { contact_information_id: string }) =>
    (await dataOf(apiClient.POST('/api/{provider}/onboarding/save-payment-information', { ...provider, body })))
      .payment_information,
  startFree: () => dataOf(apiClient.POST('/api/{provider}/onboarding/start-free', provider)),
};
