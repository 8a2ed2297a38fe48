import { useTranslation } from 'react-i18next';
import { useClientConfig } from '../../app/hooks.ts';
import type { ConversationStream } from '../../realtime/types.ts';
import { useStreamSelector } from '../../realtime/use-stream-selector.ts';
import { usd } from '../../rules/usd.ts';
import { InHeader } from '../../ui/index.ts';
import { sessionCost } from '../../../machines/open-conversation.ts';

/** Spec §2: the credit indicator shows the open conversation's cost too, with usage's 4 decimals (hosted service). */
export function ConversationCost({ stream }: { stream: ConversationStream }) {
  const { t, i18n } = useTranslation();
  const hosted = useClientConfig()?.APP_MODE === 'saas';
  const cost = useStreamSelector(stream, (snapshot) => sessionCost(snapshot.events));
  if (!hosted) return null;
  return <InHeader>{t('credits.conversationCost', { amount: usd(cost, i18n.language, 4, 4) })}</InHeader>;
}
