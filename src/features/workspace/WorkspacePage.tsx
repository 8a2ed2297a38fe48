import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { selectConversation, selectFailure, selectIsUnavailable } from '../../../machines/conversation.ts';
import { selectUser } from '../../../machines/session.ts';
import { SessionContext } from '../../app/session.ts';
import { Button, Spinner } from '../../ui/index.ts';
import { takePrefetched, useConversationChanges } from '../conversations/index.ts';
import { LayoutView } from './LayoutView.tsx';
import { SaveLayoutDialog } from './SaveLayoutDialog.tsx';
import { createScreenModel } from './screen-model.ts';
import type { TabViews } from './tab-registry.ts';
import { useConversationActor, useConversationStream, useLayoutActor, useLiveConversation } from './use-workspace.ts';
import { WorkspaceMenuBar } from './WorkspaceMenuBar.tsx';
import * as styles from './workspace.css.ts';

interface WorkspacePageProps {
  conversationId: string;
  views: TabViews;
  /** The url's temp_message: sent once the socket is connected. */
  tempMessage: string | null;
  /** Removes temp_message from the url. */
  clearTempMessage: () => void;
}

/** One conversation: its menu bar, and its tabs in the layout (pm on load). */
export function WorkspacePage({ conversationId, views, tempMessage, clearTempMessage }: WorkspacePageProps) {
  const { t } = useTranslation('workspace');
  const [prefetched] = useState(() => takePrefetched(conversationId));
  const conversation = useConversationActor(conversationId, prefetched.record);
  const change = useConversationChanges();
  const record = useSelector(conversation, selectConversation);
  const unavailable = useSelector(conversation, selectIsUnavailable);
  const failure = useSelector(conversation, selectFailure);
  const signedIn = SessionContext.useSelector((snapshot) => selectUser(snapshot) !== null);
  const stream = useConversationStream(conversation, tempMessage, clearTempMessage, prefetched.newestPage);
  const live = useLiveConversation(record, stream);
  // The stream knows first when the conversation stopped or started (a server restart, another tab): the machine hears it.
  const streamedStatus = live?.status;
  useEffect(() => {
    if (streamedStatus && streamedStatus !== record?.status)
      conversation.send({ type: 'STATUS_STREAMED', status: streamedStatus });
  }, [streamedStatus, record?.status, conversation]);
  const [screen] = useState(createScreenModel);
  const layout = useLayoutActor(screen);

  if (unavailable)
    return (
      <div className={styles.centred} role="alert">
        <p>
          {failure === null
            ? t('conversation.loadFailed')
            : failure.kind === 'server'
              ? failure.text
              : t(`conversation.${failure.message}`)}
        </p>
        <Button onClick={() => conversation.send({ type: 'RETRY' })}>{t('page.retry')}</Button>
      </div>
    );
  if (live === null || stream === null)
    return (
      <div className={styles.centred}>
        <Spinner label={t('page.loading')} />
      </div>
    );
  return (
    <div className={styles.workspace}>
      {signedIn ? (
        <WorkspaceMenuBar
          conversation={conversation}
          record={live}
          stream={stream}
          layout={layout}
          screen={screen}
          change={change}
        />
      ) : null}
      <LayoutView
        layout={layout}
        views={views}
        screen={screen}
        stream={stream}
        conversation={live}
        onRefresh={() => {
          conversation.send({ type: 'REFRESH' });
          stream.reconnect();
        }}
        onStart={() => conversation.send({ type: 'START' })}
      />
      <SaveLayoutDialog layout={layout} />
    </div>
  );
}
