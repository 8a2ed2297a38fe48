import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConversationStream } from '../../../realtime/types.ts';
import { isRuntimeReady } from '../runtime.ts';
import * as styles from '../tabs.css.ts';
import { createLineEditor, terminalText } from './terminal-io.ts';
import type { Conversation } from '../../../../openapi/types.ts';

export interface TerminalTabProps {
  stream: ConversationStream;
  conversation: Conversation;
}

const FONT_SIZE = 14;
const THEME = { background: '#1e1e1e', foreground: '#e6e6e6', cursor: '#e6e6e6' };

/** The conversation's shell: typed lines run as hidden `run` commands; every command and its output streams back. */
export function TerminalTab({ stream, conversation }: TerminalTabProps) {
  const { t } = useTranslation('tabs');
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const terminal = new Terminal({
      fontSize: FONT_SIZE,
      theme: THEME,
      convertEol: false,
      cursorBlink: true,
      screenReaderMode: true,
    });
    const fit = new FitAddon();
    terminal.loadAddon(fit);
    terminal.open(element);
    fit.fit();
    const resize = new ResizeObserver(() => fit.fit());
    resize.observe(element);

    const editor = createLineEditor();
    const typing = terminal.onData((data) => {
      const edit = editor.input(data);
      if (edit.echo !== '') terminal.write(edit.echo);
      for (const command of edit.commands) stream.send({ action: 'run', args: { command, hidden: true } });
    });

    let lastWritten = -1;
    const write = (fromHistory: boolean) => {
      for (const event of stream.getSnapshot().events) {
        if (event.id <= lastWritten) continue;
        lastWritten = event.id;
        const text = terminalText(event, fromHistory);
        if (text !== '') terminal.write(text);
      }
    };
    write(true);
    const unsubscribe = stream.subscribe(() => write(false));

    return () => {
      unsubscribe();
      typing.dispose();
      resize.disconnect();
      terminal.dispose();
    };
  }, [stream]);

  return (
    <div className={styles.tab} role="region" aria-label={t('terminal.label')}>
      {!isRuntimeReady(conversation) && <p className={styles.warning}>{t('runtime.waiting')}</p>}
      <div ref={host} className={styles.terminal} />
    </div>
  );
}
