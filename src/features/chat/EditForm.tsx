import { useTranslation } from 'react-i18next';
import { enterKeyIntent } from '../../../machines/chat-input.ts';
import { Button, MessageTextarea } from '../../ui/index.ts';
import * as styles from './chat.css.ts';
import type { RowFork } from './EventRow.tsx';

/** Edit and retry: the user's message as an editable text, sent in a fork that ends just before it. */
export function EditForm({ edit, busy }: { edit: NonNullable<RowFork['edit']>; busy: boolean }) {
  const { t } = useTranslation('chat');
  const send = (key: { shiftKey: boolean; isComposing: boolean }) => {
    if (enterKeyIntent(key) !== 'send') return false;
    edit.onSend();
    return true;
  };
  return (
    <div className={styles.editForm} onKeyDown={(event) => event.key === 'Escape' && edit.onCancel()}>
      <MessageTextarea
        aria-label={t('fork.editLabel')}
        value={edit.draft}
        autoFocus
        onChange={(event) => edit.onChange(event.currentTarget.value)}
        onEnter={send}
      />
      <div className={styles.rowActions}>
        <Button size="sm" onClick={edit.onSend} disabled={busy || edit.draft.trim() === ''}>
          {busy ? t('fork.forking') : t('fork.send')}
        </Button>
        <Button size="sm" tone="secondary" onClick={edit.onCancel} disabled={busy}>
          {t('fork.cancel')}
        </Button>
      </div>
    </div>
  );
}
