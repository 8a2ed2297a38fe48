import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { relativeTime, showsUpdatedTime } from '../../rules/event-display.ts';
import {
  Button,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
  ProviderIcon,
} from '../../ui/index.ts';
import type { ConversationDialog } from './ConversationDialogs.tsx';
import { useConversationChanges } from './changes.ts';
import { conversationRequests } from './requests.ts';
import { workspaceZipName } from './rules.ts';
import * as styles from './sidebar.css.ts';
import { StatusBadge } from './StatusBadge.tsx';
import type { Conversation } from '../../../openapi/types.ts';

/** Saves the browser a file. */
function download(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const anchor = Object.assign(document.createElement('a'), { href: url, download: name });
  anchor.click();
  URL.revokeObjectURL(url);
}

export function ConversationCard({
  conversation,
  onOpenDialog,
}: {
  conversation: Conversation;
  onOpenDialog: (dialog: ConversationDialog) => void;
}) {
  const { t } = useTranslation(['conversations', 'common']);
  const [editing, setEditing] = useState(false);
  const focusTitle = useRef(false);
  const titleField = useRef<HTMLInputElement>(null);
  const change = useConversationChanges();
  const downloadZip = useMutation({
    mutationFn: () => conversationRequests.workspaceZip(conversation.conversation_id),
    onSuccess: (blob) => download(blob, workspaceZipName(conversation.conversation_id)),
  });
  const now = new Date();
  const time = (at: string) => {
    const ago = relativeTime(at, now);
    return t(ago.key, { count: ago.count });
  };
  const id = conversation.conversation_id;

  const finishEditing = (raw: string | null) => {
    setEditing(false);
    if (raw !== null)
      change({ kind: 'rename', conversationId: conversation.conversation_id, current: conversation.title, title: raw });
  };
  const onTitleKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && !event.nativeEvent.isComposing) event.currentTarget.blur();
    if (event.key === 'Escape') {
      event.preventDefault();
      finishEditing(null);
    }
  };

  return (
    <article className={styles.card}>
      <div className={styles.cardTop}>
        {editing ? (
          <input
            ref={titleField}
            className={styles.titleInput}
            aria-label={t('card.titleLabel')}
            defaultValue={conversation.title}
            autoFocus
            onKeyDown={onTitleKey}
            onBlur={(event) => finishEditing(event.currentTarget.value)}
          />
        ) : (
          <Link
            to="/experiment/conversations/$conversationId"
            params={{ conversationId: id }}
            className={styles.cardTitle}
          >
            {conversation.title}
          </Link>
        )}
        <DropdownMenu>
          <DropdownMenuTrigger>
            <Button tone="ghost" size="sm" aria-label={t('card.actions', { title: conversation.title })}>
              <span aria-hidden="true">⋯</span>
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent
            onCloseAutoFocus={(event) => {
              // The title field takes the focus, not the menu's button (while the menu was open, it kept the focus).
              if (!focusTitle.current) return;
              focusTitle.current = false;
              event.preventDefault();
              titleField.current?.focus();
            }}
          >
            <DropdownMenuItem
              onSelect={() => {
                focusTitle.current = true;
                setEditing(true);
              }}
            >
              {t('actions.rename')}
            </DropdownMenuItem>
            {conversation.status === 'STOPPED' ? null : (
              <DropdownMenuItem onSelect={() => onOpenDialog({ kind: 'stop', conversation })}>
                {t('actions.stop')}
              </DropdownMenuItem>
            )}
            <DropdownMenuItem onSelect={() => onOpenDialog({ kind: 'delete', conversation })}>
              {t('actions.delete')}
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => downloadZip.mutate()}>{t('actions.download')}</DropdownMenuItem>
            <DropdownMenuItem onSelect={() => onOpenDialog({ kind: 'metrics', conversation })}>
              {t('actions.cost')}
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => onOpenDialog({ kind: 'system', conversation })}>
              {t('actions.tools')}
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => onOpenDialog({ kind: 'microagents', conversation })}>
              {t('actions.microagents')}
            </DropdownMenuItem>
            <DropdownMenuItem onSelect={() => onOpenDialog({ kind: 'forks', conversation })}>
              {t('actions.forks')}
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
      {conversation.forked_from ? (
        <Link
          to="/experiment/conversations/$conversationId"
          params={{ conversationId: conversation.forked_from.conversation_id }}
          className={styles.forkOf}
        >
          {t('card.forkOf', { title: conversation.forked_from.title })}
        </Link>
      ) : null}
      <div className={styles.meta}>
        <StatusBadge status={conversation.status} />
        {conversation.selected_repository ? (
          <span className={styles.repository}>
            {conversation.git_provider ? (
              <ProviderIcon
                provider={conversation.git_provider}
                label={t(`common:gitProviders.${conversation.git_provider}`)}
              />
            ) : null}
            {conversation.selected_repository}
          </span>
        ) : null}
      </div>
      <div className={styles.meta}>
        <span>{t('card.created', { time: time(conversation.created_at) })}</span>
        {showsUpdatedTime(conversation.created_at, conversation.last_updated_at) ? (
          <span>{t('card.updated', { time: time(conversation.last_updated_at) })}</span>
        ) : null}
      </div>
    </article>
  );
}
