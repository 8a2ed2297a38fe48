import type { Db } from '../../db/index.ts';
import { onboardingHandlers } from './handlers.ts';
import { createOnboardingService, type OnboardingDeps } from './service.ts';

export { ONBOARDING_PROVIDER, type OnboardingService } from './service.ts';

export function createOnboardingModule({ db, hosted, ...deps }: OnboardingDeps & { db: Db; hosted: boolean }) {
  const service = createOnboardingService(db, deps);
  return { service, handlers: onboardingHandlers(service, hosted) };
}
