import { useTranslation } from 'react-i18next';
import { Button, DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../ui/index.ts';
import * as styles from './chat.css.ts';
import type { RowFork } from './EventRow.tsx';

/**
 * Fork from here, and Edit and retry on the user's own messages: a button, the row's menu, and F / E
 * on the focused row. On the user's message (a bubble on the right) only the menu shows, in the
 * free space on its left, so that nothing covers the message.
 */
export function ForkTools({ fork, at, text }: { fork: RowFork; at: number; text: string | null }) {
  const { t } = useTranslation('chat');
  const ownMessage = text !== null;
  return (
    <div className={ownMessage ? `${styles.rowTools} ${styles.rowToolsStart}` : styles.rowTools}>
      {ownMessage ? null : (
        <Button size="sm" tone="ghost" disabled={fork.busy} onClick={() => fork.onFork(at)}>
          {t('fork.forkFromHere')}
        </Button>
      )}
      <DropdownMenu>
        <DropdownMenuTrigger>
          <Button size="sm" tone="ghost" aria-label={t('fork.rowActions')}>
            <span aria-hidden="true">⋯</span>
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent>
          <DropdownMenuItem disabled={fork.busy} onSelect={() => fork.onFork(at)}>
            {t('fork.forkFromHere')}
          </DropdownMenuItem>
          {text === null ? null : (
            <DropdownMenuItem disabled={fork.busy} onSelect={() => fork.onEdit(at, text)}>
              {t('fork.editAndRetry')}
            </DropdownMenuItem>
          )}
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}
