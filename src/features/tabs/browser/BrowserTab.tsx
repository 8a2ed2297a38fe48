import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConversationStream } from '../../../realtime/types.ts';
import * as styles from '../tabs.css.ts';
import { useStreamSelector } from '../../../realtime/use-stream-selector.ts';
import { createBrowserPageSelector } from './browser-page.ts';
import type { Conversation } from '../../../../openapi/types.ts';

export interface BrowserTabProps {
  stream: ConversationStream;
  conversation: Conversation;
}

/** The agent's browser: the current address and screenshot, or 'no page loaded'. */
export function BrowserTab({ stream }: BrowserTabProps) {
  const { t } = useTranslation('tabs');
  const [selectPage] = useState(createBrowserPageSelector);
  const page = useStreamSelector(stream, selectPage);
  return (
    <div className={styles.tab}>
      <div className={styles.bar}>
        <input className={styles.address} readOnly value={page?.url ?? ''} aria-label={t('browser.url')} />
      </div>
      <div className={styles.body}>
        {page?.screenshot ? (
          <img className={styles.screenshot} src={page.screenshot} alt={t('browser.screenshot', { url: page.url })} />
        ) : (
          <p className={styles.message}>{t('browser.noPage')}</p>
        )}
      </div>
    </div>
  );
}
