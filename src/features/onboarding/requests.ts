import type { ContactInput, OnboardingStart, PaymentInput } from '../../../machines/onboarding.ts';
import type { components } from '../../../openapi/schema.d.ts';
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
  /** Stripe's page that takes a card and sends the browser back to `returnTo`: its address. */
  cardSetupPage: async (returnTo: CardSetupReturn | 'onboarding', chat?: string) =>
    (
      await dataOf(
        returnTo === 'onboarding'
          ? // An account in onboarding reaches only onboarding's operations; back there, to its chat.
            apiClient.POST('/api/{provider}/onboarding/card-setup-session', { ...provider, body: chat ? { chat } : {} })
          : apiClient.POST('/api/billing/create-customer-setup-session', { body: { return_to: returnTo } }),
      )
    ).redirect_url,
  /** Keeps the card Stripe's page took in the setup session it sent the browser back with. */
  saveCardSetup: async (body: { contact_information_id: string; setup_session_id: string }) =>
    (await dataOf(apiClient.POST('/api/{provider}/onboarding/save-card-setup', { ...provider, body })))
      .payment_information,
};

export type CardSetupReturn = NonNullable<components['schemas']['CardSetupRequest']['return_to']>;
