import { requireUser, type Handlers } from '../../shared/operations.ts';
import type { FeedbackService } from './service.ts';

export function feedbackHandlers(feedback: FeedbackService): Handlers {
  return {
    submitEventFeedback: async (ctx) => {
      await feedback.rate(requireUser(ctx), ctx.body);
      return { success: true };
    },
    getEventFeedback: async (ctx) =>
      feedback.ofEvent(requireUser(ctx), ctx.params.conversation_id, ctx.params.event_id),
    getConversationFeedbackBatch: async (ctx) => feedback.ofConversation(requireUser(ctx), ctx.params.conversation_id),
    submitTrajectoryFeedback: async (ctx) =>
      feedback.onTrajectory(requireUser(ctx), ctx.params.conversation_id, ctx.body),
  };
}
