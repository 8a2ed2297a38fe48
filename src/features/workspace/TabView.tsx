import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { tabNameKey } from '../../../machines/layout-json.ts';
import type { ConversationStream } from '../../realtime/types.ts';
import { Spinner } from '../../ui/index.ts';
import type { TabViews, WorkspaceTab } from './tab-registry.ts';
import type { Conversation } from '../../../openapi/types.ts';

export interface TabViewProps {
  tab: WorkspaceTab;
  views: TabViews;
  stream: ConversationStream;
  conversation: Conversation;
  /** The chat's Refresh. */
  onRefresh: () => void;
  /** The chat's Start, for a stopped conversation. */
  onStart: () => void;
}

/** One tab's view, with a spinner while its code loads. */
export function TabView({ tab, views, stream, conversation, onRefresh, onStart }: TabViewProps) {
  const { t } = useTranslation('workspace');
  const view = () => {
    if (tab === 'chat')
      return <views.chat stream={stream} conversation={conversation} onRefresh={onRefresh} onStart={onStart} />;
    const View = views[tab];
    return <View stream={stream} conversation={conversation} />;
  };
  return <Suspense fallback={<Spinner label={t('page.tabLoading', { tab: t(tabNameKey(tab)) })} />}>{view()}</Suspense>;
}
