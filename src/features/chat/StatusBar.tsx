import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { selectAgentState, selectDotColour, type agentMachine } from '../../../machines/agent.ts';
import type { ConversationStream, StreamSnapshot } from '../../realtime/types.ts';
import { Button } from '../../ui/index.ts';
import type { ActorRefFrom } from 'xstate';
import * as styles from './chat.css.ts';
import { statusBarShown, statusText } from './rules/status-bar.ts';
import { useStreamSelector } from '../../realtime/use-stream-selector.ts';
import type { Conversation } from '../../../openapi/types.ts';

const selectConnection = (snapshot: StreamSnapshot) => snapshot.connection;
const selectConnectionMessage = (snapshot: StreamSnapshot) => snapshot.connectionMessage;

/** The status dot and message, with Refresh while the socket is disconnected and Start while the conversation is stopped; hidden when all is ready. */
export function StatusBar({
  stream,
  conversation,
  agent,
  onRefresh,
  onStart,
}: {
  stream: ConversationStream;
  conversation: Conversation;
  agent: ActorRefFrom<typeof agentMachine>;
  onRefresh: () => void;
  onStart?: (() => void) | undefined;
}) {
  const { t } = useTranslation('chat');
  const connection = useStreamSelector(stream, selectConnection);
  const connectionMessage = useStreamSelector(stream, selectConnectionMessage);
  const colour = useSelector(agent, selectDotColour);
  const agentState = useSelector(agent, selectAgentState);
  const facts = { connection, conversationStatus: conversation.status, runtimeStatus: conversation.runtime_status };
  if (!statusBarShown(facts)) return null;
  const text = statusText(facts, agentState);
  return (
    <div className={styles.statusBar} role="status">
      <span className={`${styles.dot} ${styles.dotColour[colour]}`} aria-hidden="true" />
      <span>{connectionMessage ?? t(text)}</span>
      {conversation.status === 'STOPPED' && onStart && (
        <Button size="sm" onClick={onStart}>
          {t('status.start')}
        </Button>
      )}
      {connection === 'DISCONNECTED' && conversation.status !== 'STOPPED' && (
        <Button size="sm" tone="secondary" onClick={onRefresh}>
          {t('status.refresh')}
        </Button>
      )}
    </div>
  );
}
