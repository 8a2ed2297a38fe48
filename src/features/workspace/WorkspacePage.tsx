import { useSelector } from '@xstate/react';
import { Suspense, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { selectConversation, selectFailure, selectIsUnavailable } from '../../../machines/conversation.ts';
import { chatShare, openComponents, poppedOutComponents, singleTile } from '../../../machines/layout-json.ts';
import { selectLayoutModel } from '../../../machines/layout.ts';
import { useCurrentUser } from '../../app/hooks.ts';
import { SessionContext } from '../../app/session.ts';
import { Button, Spinner, useNarrowScreen, lazyRetrying } from '../../ui/index.ts';
import { takePrefetched, useConversationChanges } from '../conversations/index.ts';
import { HostSlot } from './HostSlot.tsx';
import { SaveLayoutDialog } from './SaveLayoutDialog.tsx';
import { createScreenModel } from './screen-model.ts';
import type { TabViews } from './tab-registry.ts';
import { TabView } from './TabView.tsx';
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

// flexlayout and the tiles load after the first frame, which shows the chat where its tile will be.
const LayoutView = lazyRetrying(() => import('./LayoutView.tsx'));

/** The first frame: the chat (when it is on screen at first) at its tile's share of the width. */
function FirstFrame({ chatHost, share }: { chatHost: HTMLElement; share: number | null }) {
  const { t } = useTranslation('workspace');
  return (
    <div className={styles.layoutArea}>
      {share === null ? (
        <Spinner label={t('page.loading')} />
      ) : (
        <div className={styles.firstFrameChat} style={{ width: `${share * 100}%` }}>
          <HostSlot host={chatHost} />
        </div>
      )}
    </div>
  );
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
  const signedIn = useCurrentUser() !== null;
  const session = SessionContext.useActorRef();
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
  // The chat is rendered once, into this element, which its tile (or popout window) adopts: it
  // stays mounted from the first frame on, wherever its tile goes.
  const [chatHost] = useState(() => {
    const element = document.createElement('div');
    element.className = styles.tile;
    return element;
  });
  const json = useSelector(layout, selectLayoutModel);
  const narrow = useNarrowScreen();
  const chatOpen = openComponents(json).includes('chat') || poppedOutComponents(json).includes('chat');

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
        {failure?.kind === 'message' && failure.message === 'signInNeeded' ? (
          <Button onClick={() => session.send({ type: 'OPEN_SIGN_IN' })}>{t('page.signIn')}</Button>
        ) : (
          <Button onClick={() => conversation.send({ type: 'RETRY' })}>{t('page.retry')}</Button>
        )}
      </div>
    );
  if (live === null || stream === null)
    return (
      <div className={styles.centred}>
        <Spinner label={t('page.loading')} />
      </div>
    );
  const tabProps = {
    views,
    stream,
    conversation: live,
    onRefresh: () => {
      conversation.send({ type: 'REFRESH' });
      stream.reconnect();
    },
    onStart: () => conversation.send({ type: 'START' }),
  };
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
      <Suspense fallback={<FirstFrame chatHost={chatHost} share={chatShare(narrow ? singleTile(json) : json)} />}>
        <LayoutView layout={layout} screen={screen} chatHost={chatHost} {...tabProps} />
      </Suspense>
      {chatOpen ? createPortal(<TabView tab="chat" {...tabProps} />, chatHost) : null}
      <SaveLayoutDialog layout={layout} />
    </div>
  );
}
