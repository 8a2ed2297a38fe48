import { feedbackHandlers } from './handlers.ts';
import { createFeedbackService, type FeedbackDeps } from './service.ts';

export function createFeedbackModule(deps: FeedbackDeps) {
  const service = createFeedbackService(deps);
  return { service, handlers: feedbackHandlers(service) };
}
