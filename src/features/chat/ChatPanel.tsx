import { useSelector } from '@xstate/react';
import { Suspense, useCallback, useEffect, useMemo, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { selectAwaitingConfirmation, selectSuggestionsShown, selectTyping } from '../../../machines/agent.ts';
import { selectPending } from '../../../machines/chat-input.ts';
import { useClientConfig } from '../../app/hooks.ts';
import type { ConversationStream } from '../../realtime/types.ts';
import { Button, toast, lazyRetrying } from '../../ui/index.ts';
import * as styles from './chat.css.ts';
import { MessageBox } from './MessageBox.tsx';
import { useFork } from './use-fork.ts';
import { useMicroagentLaunch } from './use-microagent-launch.ts';
import { MessageList } from './MessageList.tsx';
import { downloadTrajectory } from './requests.ts';
import { hasGitTarget, suggestionPrompt, type SuggestionKind } from '../../rules/git-suggestions.ts';
import { StatusBar } from './StatusBar.tsx';
import { ChatTreeContext, useChatActors, useChatTree } from './use-chat-actors.ts';
import { ConversationCost } from './ConversationCost.tsx';
import type { Conversation } from '../../../openapi/types.ts';

// The modal loads with the launch machine, on the first 'Remember in a microagent'.
const LaunchMicroagentDialog = lazyRetrying(() =>
  import('./LaunchMicroagentDialog.tsx').then((module) => ({ default: module.LaunchMicroagentDialog })),
);

export interface ChatPanelProps {
  stream: ConversationStream;
  conversation: Conversation;
  /** Refresh on a disconnected chat (the workspace restarts the conversation); reconnects the socket when not given. */
  onRefresh?: () => void;
  /** Start, for a stopped conversation; without it the status bar offers none. */
  onStart?: () => void;
}

const carriesFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');

/** Push-to-branch and create-PR: sent as a message through the message box (optimistic like any other), keeping the draft. */
function Suggestions({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation('chat');
  const { agent, chatInput } = useChatActors();
  const shown = useSelector(agent, selectSuggestionsShown);
  if (!shown || !hasGitTarget(conversation)) return null;
  const suggest = (kind: SuggestionKind) => {
    const prompt = suggestionPrompt(kind, conversation);
    chatInput.send({ type: 'SUBMIT_TEXT', text: t(prompt.key, prompt.params), at: new Date().toISOString() });
  };
  return (
    <div className={styles.suggestions} role="group" aria-label={t('suggestions.label')}>
      <Button size="sm" tone="secondary" onClick={() => suggest('push')}>
        {t('suggestions.pushToBranch')}
      </Button>
      <Button size="sm" tone="secondary" onClick={() => suggest('pullRequest')}>
        {t('suggestions.createPr')}
      </Button>
    </div>
  );
}

/** The chat of an open conversation: status, the events, the agent's controls and the message box; files can be dropped on it. */
export function ChatPanel(props: ChatPanelProps) {
  const tree = useChatTree(props.stream, props.conversation);
  // The record is the workspace's conversation machine's, outside this tree: its status is handed in as it changes.
  const status = props.conversation.status;
  useEffect(() => tree.send({ type: 'CONVERSATION_STATUS_CHANGED', status }), [tree, status]);
  return (
    <ChatTreeContext.Provider value={tree}>
      <ChatView {...props} />
    </ChatTreeContext.Provider>
  );
}

function ChatView({ stream, conversation, onRefresh, onStart }: ChatPanelProps) {
  const { t } = useTranslation('chat');
  const { agent, chatInput, upload } = useChatActors();
  const pending = useSelector(chatInput, selectPending);
  const awaitingConfirmation = useSelector(agent, selectAwaitingConfirmation);
  const typing = useSelector(agent, selectTyping);
  const feedbackEnabled = useClientConfig()?.APP_MODE === 'saas';
  const [dragging, setDragging] = useState(false);
  const { launch, remember, tasks: launchTasks } = useMicroagentLaunch(conversation);
  const fork = useFork();
  const memory = useMemo(
    () => (remember ? { onRemember: remember, tasks: launchTasks } : null),
    [remember, launchTasks],
  );

  const confirm = useCallback(() => agent.send({ type: 'CONFIRM' }), [agent]);
  const reject = useCallback(() => agent.send({ type: 'REJECT' }), [agent]);
  const refresh = onRefresh ?? (() => stream.reconnect());
  const exportTrajectory = () => {
    downloadTrajectory(conversation.conversation_id).catch(() => toast.error(t('actions.exportFailed')));
  };

  return (
    <section
      className={styles.panel}
      aria-label={t('panel.label')}
      onDragOver={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        setDragging(false);
        upload.send({ type: 'DROP_FILES', files: [...event.dataTransfer.files] });
      }}
    >
      <ConversationCost stream={stream} />
      <StatusBar stream={stream} conversation={conversation} agent={agent} onRefresh={refresh} onStart={onStart} />
      <div className={styles.toolbar}>
        <Button size="sm" tone="ghost" onClick={exportTrajectory}>
          {t('actions.exportTrajectory')}
        </Button>
      </div>
      <MessageList
        stream={stream}
        pending={pending}
        awaitingConfirmation={awaitingConfirmation}
        onConfirm={confirm}
        onReject={reject}
        feedbackEnabled={feedbackEnabled}
        memory={memory}
        fork={fork}
      />
      {launch ? (
        <Suspense fallback={null}>
          <LaunchMicroagentDialog launch={launch} />
        </Suspense>
      ) : null}
      {typing && (
        <p className={styles.typing} role="status">
          {t('agent.typing')}
        </p>
      )}
      <div className={styles.footer}>
        <Suggestions conversation={conversation} />
        <MessageBox />
      </div>
      {dragging && (
        <div className={styles.dropOverlay} aria-hidden="true">
          {t('upload.dropHere')}
        </div>
      )}
    </section>
  );
}
