import { NotFound } from '../../shared/domain-errors.ts';
import { requireUser, type Handlers } from '../../shared/operations.ts';
import { ONBOARDING_PROVIDER, type OnboardingService } from './service.ts';

/** The onboarding operations; an unknown provider, or oss mode (no accounts), answers 404. */
export function onboardingHandlers(service: OnboardingService, hosted: boolean): Handlers {
  const userOf = (ctx: { params: { provider: string }; user: Parameters<typeof requireUser>[0]['user'] }) => {
    if (!hosted || ctx.params.provider !== ONBOARDING_PROVIDER) throw new NotFound('No onboarding for this provider');
    return requireUser(ctx).id;
  };
  const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  return {
    getOnboardingFormData: async (ctx) => service.formData(userOf(ctx)),
    listCountries: async (ctx) => service.countries(userOf(ctx)),
    detectCountry: async (ctx) => service.detectCountry(userOf(ctx), header(ctx.headers['accept-language'])),
    saveUserCountry: async (ctx) => service.saveCountry(userOf(ctx), ctx.body.country),
    saveContactInformation: async (ctx) => service.saveContact(userOf(ctx), ctx.body),
    savePaymentInformation: async (ctx) => service.savePayment(userOf(ctx), ctx.body),
    createOnboardingCardSetupSession: async (ctx) => service.cardSetupPage(userOf(ctx), ctx.body?.chat),
    saveCardSetup: async (ctx) => service.saveCardSetup(userOf(ctx), ctx.body),
    claimCredits: async (ctx) => {
      if (!hosted) throw new NotFound('Not found');
      return service.claim.withCard(requireUser(ctx).id, ctx.body);
    },
    claimCreditsWithCardSetup: async (ctx) => {
      if (!hosted) throw new NotFound('Not found');
      return service.claim.withCardSetup(requireUser(ctx).id, ctx.body);
    },
    startFree: async (ctx) => service.startFree(userOf(ctx)),
  };
}
