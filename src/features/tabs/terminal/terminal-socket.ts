import { fromCallback, type EventObject } from 'xstate';
import { pageSocketUrl } from '../../../realtime/conversation-stream.ts';
import type {
  TerminalKeys,
  TerminalSessionInput,
  TerminalSocketReport,
} from '../../../../machines/terminal-session.ts';
import type { components } from '../../../../openapi/schema.d.ts';

type ServerFrame = components['schemas']['TerminalServerFrame'];
type ClientFrame = components['schemas']['TerminalClientFrame'];

/** Where a terminal's output goes, and the size it is drawn at. */
export interface TerminalScreen {
  write(data: string): void;
  size(): { cols: number; rows: number };
}

/**
 * The terminal session machine's socket (x-terminal-websocket) on the page's host: output is
 * written to `screen` as it arrives, keys and sizes sent once open (the size first, so the
 * shell draws for this tab), the shell's end and a close reported.
 */
export function terminalSocket(screen: TerminalScreen, credentials: () => Record<string, string>) {
  return fromCallback<EventObject, TerminalSessionInput, TerminalSocketReport>(({ input, sendBack, receive }) => {
    const query = new URLSearchParams({
      conversation_id: input.conversationId,
      terminal_id: input.terminalId,
      ...credentials(),
    });
    const socket = new WebSocket(`${pageSocketUrl('/terminal')}?${query}`);
    const send = (frame: ClientFrame) => socket.readyState === WebSocket.OPEN && socket.send(JSON.stringify(frame));
    socket.onopen = () => {
      send({ type: 'resize', ...screen.size() });
      sendBack({ type: 'OPENED' });
    };
    socket.onmessage = (message) => {
      const frame = JSON.parse(String(message.data)) as ServerFrame;
      if ('error' in frame) return;
      if (frame.type === 'output') {
        screen.write(frame.data);
        sendBack({ type: 'OUTPUT' });
      } else sendBack({ type: 'EXITED', exitCode: frame.exit_code });
    };
    socket.onclose = (closed) => sendBack({ type: 'DROPPED', code: closed.code });
    receive((event) => {
      const keys = event as TerminalKeys;
      if (keys.type === 'INPUT') send({ type: 'input', data: keys.data });
      else send({ type: 'resize', cols: keys.cols, rows: keys.rows });
    });
    return () => {
      socket.onclose = null;
      socket.close();
    };
  });
}
