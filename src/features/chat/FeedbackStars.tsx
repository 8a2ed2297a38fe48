import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import {
  feedbackMachine,
  LOW_RATING_REASONS,
  selectChoosingReason,
  selectCountdown,
  selectRating,
  selectShowThanks,
  selectStarsLocked,
  selectSubmissionFailed,
  selectVisible,
  type EventFeedback,
  type Feedback,
} from '../../../machines/feedback.ts';
import type { ConversationStream } from '../../realtime/types.ts';
import { Button } from '../../ui/index.ts';
import * as styles from './chat.css.ts';
import { chatRequests } from './requests.ts';
import { isAmongRatableEvents } from './rules/feedback-window.ts';
import { useStreamSelector } from '../../realtime/use-stream-selector.ts';

const RATINGS = [1, 2, 3, 4, 5] as const;

const feedbackLogic = feedbackMachine.provide({
  actors: {
    checkFeedback: fromPromise<EventFeedback, { conversationId: string; eventId: number }>(({ input }) =>
      chatRequests.eventFeedback(input.conversationId, input.eventId),
    ),
    submitFeedback: fromPromise<void, Feedback>(({ input }) => chatRequests.submitFeedback(input)),
  },
});

/** The star rating of one agent message (saas only); it appears once the message is among the last 10 events. */
export function FeedbackStars({ stream, eventId }: { stream: ConversationStream; eventId: number }) {
  const selectRatable = useCallback(
    (snapshot: ReturnType<ConversationStream['getSnapshot']>) => isAmongRatableEvents(snapshot.events, eventId),
    [eventId],
  );
  const ratable = useStreamSelector(stream, selectRatable);
  // Once offered, the form stays mounted so a rating already given keeps showing.
  const [offered, setOffered] = useState(ratable);
  if (ratable && !offered) setOffered(true);
  if (!offered) return null;
  return <StarForm conversationId={stream.conversationId} eventId={eventId} ratable={ratable} />;
}

function StarForm({ conversationId, eventId, ratable }: { conversationId: string; eventId: number; ratable: boolean }) {
  const { t } = useTranslation('chat');
  const actor = useActorRef(feedbackLogic, { input: { conversationId, eventId, ratable } });
  useEffect(() => actor.send({ type: 'RATABLE_CHANGED', ratable }), [actor, ratable]);
  const visible = useSelector(actor, selectVisible);
  const rating = useSelector(actor, selectRating);
  const locked = useSelector(actor, selectStarsLocked);
  const thanks = useSelector(actor, selectShowThanks);
  const choosingReason = useSelector(actor, selectChoosingReason);
  const countdown = useSelector(actor, selectCountdown);
  const failed = useSelector(actor, selectSubmissionFailed);
  if (!visible) return null;
  return (
    <div className={styles.stars}>
      <div>
        {RATINGS.map((value) => (
          <button
            key={value}
            type="button"
            className={`${styles.star} ${rating !== null && value <= rating ? styles.starFilled : ''}`}
            aria-label={t('feedback.rate', { rating: value })}
            aria-pressed={rating === value}
            disabled={locked}
            onClick={() => actor.send({ type: 'RATE', rating: value })}
          >
            ★
          </button>
        ))}
      </div>
      {choosingReason && (
        <div role="group" aria-label={t('feedback.reasonsTitle')}>
          <span>{t('feedback.reasonsTitle')} </span>
          {LOW_RATING_REASONS.map((reason) => (
            <Button
              key={reason}
              size="sm"
              tone="secondary"
              onClick={() => actor.send({ type: 'CHOOSE_REASON', reason })}
            >
              {t(`feedback.reasons.${reason}`)}
            </Button>
          ))}
          <span aria-live="polite"> {t('feedback.countdown', { count: countdown })}</span>
        </div>
      )}
      {thanks && <span role="status">{t('feedback.thanks')}</span>}
      {failed && (
        <span role="alert">
          {t('feedback.failed')}{' '}
          <Button size="sm" tone="link" onClick={() => actor.send({ type: 'RETRY' })}>
            {t('feedback.retry')}
          </Button>
        </span>
      )}
    </div>
  );
}
