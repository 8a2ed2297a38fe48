import type { ITerminalOptions } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useQueryClient } from '@tanstack/react-query';
import { useActorRef, useSelector } from '@xstate/react';
import { Tabs } from 'radix-ui';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise } from 'xstate';
import {
  selectAttached,
  selectExitCode,
  selectLost,
  selectTerminalEnd,
  terminalSessionMachine,
} from '../../../../machines/terminal-session.ts';
import {
  AGENT_VIEW,
  selectCanOpenMore,
  selectListFailed,
  selectSelectedView,
  selectTerminalIds,
  terminalsMachine,
} from '../../../../machines/terminals.ts';
import { ApiError, errorText } from '../../../api/errors.ts';
import { showErrorToast, socketCredentials } from '../../../app/services.ts';
import type { ConversationStream } from '../../../realtime/types.ts';
import { Button } from '../../../ui/Button.tsx';
import { tabKeys } from '../queries.ts';
import { tabRequests } from '../requests.ts';
import { isRuntimeReady } from '../runtime.ts';
import * as styles from '../tabs.css.ts';
import { terminalText } from './terminal-io.ts';
import { terminalSocket } from './terminal-socket.ts';
import { XtermScreen } from './xterm-screen.ts';
import type { Conversation } from '../../../../openapi/types.ts';

export interface TerminalTabProps {
  stream: ConversationStream;
  conversation: Conversation;
}

const OPTIONS: ITerminalOptions = {
  fontSize: 14,
  theme: { background: '#1e1e1e', foreground: '#e6e6e6', cursor: '#e6e6e6' },
  cursorBlink: true,
  screenReaderMode: true,
};

/**
 * The Terminal tab: the agent's commands (read-only) and the user's own terminals, each a
 * shell of its own in the conversation's sandbox that never waits on the agent's.
 */
export function TerminalTab({ stream, conversation }: TerminalTabProps) {
  const { t } = useTranslation('tabs');
  const ready = isRuntimeReady(conversation);
  return (
    <div className={styles.tab} role="region" aria-label={t('terminal.label')}>
      {!ready && <p className={styles.warning}>{t('runtime.waiting')}</p>}
      {ready ? (
        <TerminalViews stream={stream} conversationId={conversation.conversation_id} />
      ) : (
        <AgentCommands stream={stream} shown />
      )}
    </div>
  );
}

function TerminalViews({ stream, conversationId }: { stream: ConversationStream; conversationId: string }) {
  const { t } = useTranslation('tabs');
  const terminals = useActorRef(
    terminalsMachine.provide({
      actors: {
        listTerminals: fromPromise(({ input }) => tabRequests.terminals(input.conversationId)),
        openTerminal: fromPromise(({ input }) =>
          tabRequests.openTerminal(input.conversationId, new XtermScreen().size()),
        ),
        closeTerminal: fromPromise(async ({ input }) => {
          // One the server no longer has (the runtime restarted) is closed already.
          await tabRequests.closeTerminal(input.conversationId, input.terminalId).catch((error: unknown) => {
            if (!(error instanceof ApiError && error.status === 404)) throw error;
          });
          return input.terminalId;
        }),
      },
      actions: { announceFailure: (_, { error }) => showErrorToast(errorText(error)) },
    }),
    { input: { conversationId } },
  );
  const ids = useSelector(terminals, selectTerminalIds);
  const selected = useSelector(terminals, selectSelectedView);
  const canOpenMore = useSelector(terminals, selectCanOpenMore);
  const failed = useSelector(terminals, selectListFailed);
  const nameOf = (index: number) => t('terminal.user', { number: index + 1 });

  return (
    <Tabs.Root
      className={styles.terminalViews}
      value={selected}
      onValueChange={(view) => terminals.send({ type: 'SELECT', view })}
      activationMode="manual"
    >
      <div className={styles.terminalBar}>
        <Tabs.List className={styles.terminalList} aria-label={t('terminal.views')}>
          <Tabs.Trigger className={styles.terminalTrigger} value={AGENT_VIEW}>
            {t('terminal.agent')}
          </Tabs.Trigger>
          {ids.map((id, index) => (
            <Tabs.Trigger key={id} className={styles.terminalTrigger} value={id}>
              {nameOf(index)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {selected !== AGENT_VIEW && (
          <Button size="sm" tone="ghost" onClick={() => terminals.send({ type: 'CLOSE', terminalId: selected })}>
            {t('terminal.close', { name: nameOf(ids.indexOf(selected)) })}
          </Button>
        )}
        <Button
          size="sm"
          tone="ghost"
          disabled={!canOpenMore}
          title={canOpenMore ? undefined : t('terminal.limit')}
          onClick={() => terminals.send({ type: 'NEW' })}
        >
          {t('terminal.new')}
        </Button>
      </div>
      {failed && (
        <p className={styles.warning}>
          {t('terminal.listFailed')}{' '}
          <Button size="sm" tone="ghost" onClick={() => terminals.send({ type: 'RETRY' })}>
            {t('terminal.retry')}
          </Button>
        </p>
      )}
      {/* Every view stays mounted: a hidden terminal keeps drawing what its shell prints. */}
      <Tabs.Content className={styles.terminalContent} value={AGENT_VIEW} forceMount hidden={selected !== AGENT_VIEW}>
        <AgentCommands stream={stream} shown={selected === AGENT_VIEW} />
      </Tabs.Content>
      {ids.map((id) => (
        <Tabs.Content key={id} className={styles.terminalContent} value={id} forceMount hidden={selected !== id}>
          <UserTerminal conversationId={conversationId} terminalId={id} shown={selected === id} />
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}

/** The agent's commands and their output, as the conversation's events tell them. */
function AgentCommands({ stream, shown }: { stream: ConversationStream; shown: boolean }) {
  const { t } = useTranslation('tabs');
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    // Drawn afresh from the events each time: nothing else to keep.
    const screen = new XtermScreen();
    const close = screen.open(element, { ...OPTIONS, disableStdin: true, cursorBlink: false });
    let lastWritten = -1;
    const write = () => {
      for (const event of stream.getSnapshot().events) {
        if (event.id <= lastWritten) continue;
        lastWritten = event.id;
        const text = terminalText(event);
        if (text !== '') screen.write(text);
      }
    };
    write();
    const unsubscribe = stream.subscribe(write);
    return () => {
      unsubscribe();
      close();
    };
  }, [stream]);
  return <div ref={host} className={styles.terminal} hidden={!shown} aria-label={t('terminal.agentLabel')} />;
}

/** One of the user's terminals, attached over its socket. */
function UserTerminal({
  conversationId,
  terminalId,
  shown,
}: {
  conversationId: string;
  terminalId: string;
  shown: boolean;
}) {
  const { t } = useTranslation('tabs');
  const host = useRef<HTMLDivElement>(null);
  const [screen] = useState(() => new XtermScreen());
  const queryClient = useQueryClient();
  const session = useActorRef(
    terminalSessionMachine.provide({
      actors: { socket: terminalSocket(screen, socketCredentials) },
      actions: {
        filesMayHaveChanged: () => {
          void queryClient.invalidateQueries({ queryKey: tabKeys.changes(conversationId) });
          void queryClient.invalidateQueries({ queryKey: tabKeys.files(conversationId) });
        },
      },
    }),
    { input: { conversationId, terminalId } },
  );
  const attached = useSelector(session, selectAttached);
  const lost = useSelector(session, selectLost);
  const end = useSelector(session, selectTerminalEnd);
  const exitCode = useSelector(session, selectExitCode);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    screen.listen({
      input: (data) => session.send({ type: 'INPUT', data }),
      resize: (cols, rows) => session.send({ type: 'RESIZE', cols, rows }),
    });
    return screen.open(element, OPTIONS);
  }, [screen, session]);
  useEffect(() => {
    if (shown) screen.focus();
  }, [shown, screen]);

  return (
    <>
      {end === 'exited' && <p className={styles.warning}>{t('terminal.exited', { code: exitCode })}</p>}
      {end === 'gone' && <p className={styles.warning}>{t('terminal.gone')}</p>}
      {end === 'expired' && <p className={styles.warning}>{t('terminal.expired')}</p>}
      {lost && (
        <p className={styles.warning}>
          {t('terminal.lost')}{' '}
          <Button size="sm" tone="ghost" onClick={() => session.send({ type: 'RECONNECT' })}>
            {t('terminal.reconnect')}
          </Button>
        </p>
      )}
      {!attached && !end && !lost && <p className={styles.warning}>{t('terminal.connecting')}</p>}
      <div ref={host} className={styles.terminal} />
    </>
  );
}
