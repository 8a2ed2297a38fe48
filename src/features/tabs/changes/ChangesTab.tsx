import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConversationStream } from '../../../realtime/types.ts';
import { Button, Spinner } from '../../../ui/index.ts';
import { changesQuery, diffQuery, tabKeys } from '../queries.ts';
import type { FileChange } from '../requests.ts';
import { isRuntimeReady } from '../runtime.ts';
import * as styles from '../tabs.css.ts';
import { DiffView } from './DiffView.tsx';
import { changedByEvent, changesFailure, tipNumber } from './file-changes.ts';
import type { Conversation } from '../../../../openapi/types.ts';

export interface ChangesTabProps {
  stream: ConversationStream;
  conversation: Conversation;
}

function FileDiff({ conversationId, path }: { conversationId: string; path: string }) {
  const { t } = useTranslation('tabs');
  const diff = useQuery(diffQuery(conversationId, path));
  if (diff.isPending) return <p className={styles.message}>{t('changes.loadingDiff')}</p>;
  if (diff.isError) {
    const failure = changesFailure(diff.error);
    return <p className={styles.errorText}>{failure.kind === 'raw' ? failure.text : t('changes.notGitRepository')}</p>;
  }
  return <DiffView path={path} original={diff.data.original} modified={diff.data.modified} />;
}

function ChangedFile({ conversationId, change }: { conversationId: string; change: FileChange }) {
  const { t } = useTranslation('tabs');
  const [open, setOpen] = useState(false);
  return (
    <li>
      <details onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary className={styles.fileSummary}>
          <span className={styles.status} title={t(`changes.status.${change.status}`)}>
            {t(`changes.status.${change.status}`)}
          </span>
          {change.path}
        </summary>
        {open && <FileDiff conversationId={conversationId} path={change.path} />}
      </details>
    </li>
  );
}

/** Refreshes the list, and the diff of the path concerned, when an event changes files or runs a command. */
function useRefreshOnFileEvents(stream: ConversationStream, conversationId: string) {
  const queryClient = useQueryClient();
  useEffect(() => {
    let lastSeen = stream.getSnapshot().events.at(-1)?.id ?? -1;
    return stream.subscribe(() => {
      let refresh = false;
      for (const event of stream.getSnapshot().events) {
        if (event.id <= lastSeen) continue;
        lastSeen = event.id;
        const { changed, path } = changedByEvent(event);
        if (!changed) continue;
        refresh = true;
        if (path !== null) void queryClient.invalidateQueries({ queryKey: tabKeys.diff(conversationId, path) });
      }
      if (refresh) void queryClient.invalidateQueries({ queryKey: tabKeys.changes(conversationId) });
    });
  }, [stream, conversationId, queryClient]);
}

/** The files the agent changed, each opening onto a side-by-side diff. */
export function ChangesTab({ stream, conversation }: ChangesTabProps) {
  const { t } = useTranslation('tabs');
  const conversationId = conversation.conversation_id;
  const ready = isRuntimeReady(conversation);
  const changes = useQuery(changesQuery(conversationId, ready));
  const [tip] = useState(() => tipNumber(Math.random()));
  useRefreshOnFileEvents(stream, conversationId);

  const content = (() => {
    if (!ready) return <p className={styles.message}>{t('runtime.waiting')}</p>;
    if (changes.isPending)
      return (
        <div className={styles.message}>
          <Spinner label={t('changes.loading')} />
        </div>
      );
    if (changes.isError) {
      const failure = changesFailure(changes.error);
      if (failure.kind === 'notGitRepository')
        return (
          <div className={styles.message}>
            <p>{t('changes.notGitRepository')}</p>
            <p>{t('changes.askAgentHint')}</p>
          </div>
        );
      return (
        <p className={styles.errorText} role="alert">
          {failure.text}
        </p>
      );
    }
    if (changes.data.length === 0)
      return (
        <div className={styles.message}>
          <p>{t('changes.noChanges')}</p>
          <p>
            <strong>{t('changes.tipTitle')}:</strong> {t(`changes.tips.${tip}`)}
          </p>
        </div>
      );
    return (
      <ul className={styles.fileList} aria-label={t('changes.label')}>
        {changes.data.map((change) => (
          <ChangedFile key={change.path} conversationId={conversationId} change={change} />
        ))}
      </ul>
    );
  })();

  return (
    <div className={styles.tab}>
      <div className={styles.bar}>
        <Button size="sm" tone="secondary" disabled={!ready} onClick={() => void changes.refetch()}>
          {t('changes.refresh')}
        </Button>
      </div>
      <div className={styles.body}>{content}</div>
    </div>
  );
}
