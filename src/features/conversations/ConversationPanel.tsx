import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors.ts';
import { Spinner, lazyRetrying } from '../../ui/index.ts';
import { ConversationCard } from './ConversationCard.tsx';
import type { ConversationDialog } from './ConversationDialogs.tsx';
import { conversationListQuery } from './queries.ts';
import * as styles from './sidebar.css.ts';

// The dialogs (with Radix's tabs) open rarely: their code loads when a card's menu first opens one.
const ConversationDialogs = lazyRetrying(() =>
  import('./ConversationDialogs.tsx').then((module) => ({ default: module.ConversationDialogs })),
);

/** The 350 px panel of conversation cards, newest first as the server lists them. */
export function ConversationPanel({ id }: { id: string }) {
  const { t } = useTranslation('conversations');
  const list = useQuery(conversationListQuery);
  const [dialog, setDialog] = useState<ConversationDialog | null>(null);

  const content = () => {
    if (list.isPending) return <Spinner label={t('panel.loading')} />;
    if (list.isError)
      return (
        <p className={styles.error} role="alert">
          {errorText(list.error) || t('panel.loadFailed')}
        </p>
      );
    if (list.data.length === 0) return <p className={styles.notice}>{t('panel.empty')}</p>;
    return (
      <ul className={styles.cards}>
        {list.data.map((conversation) => (
          <li key={conversation.conversation_id}>
            <ConversationCard conversation={conversation} onOpenDialog={setDialog} />
          </li>
        ))}
      </ul>
    );
  };

  return (
    <section id={id} className={styles.panel} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.panelTitle}>
        {t('panel.title')}
      </h2>
      {content()}
      {dialog && (
        <Suspense fallback={null}>
          <ConversationDialogs dialog={dialog} onClose={() => setDialog(null)} />
        </Suspense>
      )}
    </section>
  );
}
