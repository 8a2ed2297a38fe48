import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConversationStream } from '../../../realtime/types.ts';
import { Button, Spinner } from '../../../ui/index.ts';
import { isRuntimeReady } from '../runtime.ts';
import * as styles from '../tabs.css.ts';
import { useStartServedApps, webHostsQuery } from '../queries.ts';
import { activeHost, shownAddress } from './web-host.ts';
import type { Conversation } from '../../../../openapi/types.ts';

export interface AppTabProps {
  stream: ConversationStream;
  conversation: Conversation;
}

/** The served web app in a frame, with an address bar, open-in-new-tab, reload and reset. */
export function AppTab({ conversation }: AppTabProps) {
  const { t } = useTranslation('tabs');
  const conversationId = conversation.conversation_id;
  const ready = isRuntimeReady(conversation);
  // The server lists only the ports something listens on, so the first one is the app that answers (spec §4).
  const hosts = useQuery(webHostsQuery(conversationId, ready));
  const home = activeHost(hosts.data?.hosts ?? [], window.location);
  const stoppedApps = hosts.data?.stopped_apps ?? [];
  const startAgain = useStartServedApps(conversationId);

  // The address typed in the bar, and the one the frame shows (null: the active host).
  const [typed, setTyped] = useState<string | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const current = shown ?? home;

  if (home === null || current === null) {
    const checking = hosts.isPending;
    return (
      <div className={styles.tab}>
        {ready && checking ? (
          <div className={styles.message}>
            <Spinner label={t('app.checking')} />
          </div>
        ) : (
          <div className={styles.message}>
            {stoppedApps.length > 0 ? (
              <>
                <p>{t('app.stopped')}</p>
                <ul className={styles.stoppedApps}>
                  {stoppedApps.map((app) => (
                    <li key={app.port}>
                      <code>{app.command}</code>
                    </li>
                  ))}
                </ul>
                <Button tone="primary" disabled={startAgain.isPending} onClick={() => startAgain.mutate()}>
                  {t('app.startAgain')}
                </Button>
                <p>{t('app.startAgainHint')}</p>
              </>
            ) : (
              <p>{t('app.noHost')}</p>
            )}
            <p>{t('app.portsShown')}</p>
          </div>
        )}
      </div>
    );
  }

  return (
    <div className={styles.tab}>
      <form
        className={styles.bar}
        onSubmit={(event) => {
          event.preventDefault();
          if (typed !== null && typed.trim() !== '') setShown(typed.trim());
          setTyped(null);
        }}
      >
        <input
          className={styles.address}
          aria-label={t('app.address')}
          value={typed ?? shownAddress(current)}
          onChange={(event) => setTyped(event.target.value)}
        />
        <Button size="sm" tone="secondary" onClick={() => setReloads((count) => count + 1)}>
          {t('app.reload')}
        </Button>
        <Button
          size="sm"
          tone="secondary"
          onClick={() => {
            setShown(null);
            setTyped(null);
            setReloads((count) => count + 1);
          }}
        >
          {t('app.reset')}
        </Button>
        <Button size="sm" tone="secondary" asChild>
          <a href={current} target="_blank" rel="noopener noreferrer">
            {t('app.openInNewTab')}
          </a>
        </Button>
      </form>
      <iframe
        key={`${current}#${reloads}`}
        className={styles.frame}
        src={current}
        title={t('app.frameTitle')}
        sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-modals allow-downloads"
      />
    </div>
  );
}
