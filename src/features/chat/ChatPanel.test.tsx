import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import chat from '../../../locales/en/chat.json';
import germanChat from '../../../locales/de/chat.json';
import workspace from '../../../locales/en/workspace.json';
import { queryKeys } from '../../api/queries.ts';
import type { ConversationStream, StreamSnapshot } from '../../realtime/types.ts';
import { ChatPanel } from './ChatPanel.tsx';
import { conversationRecord } from '../../../tests/support/records.ts';
import type { ClientAction, Event } from '../../../openapi/types.ts';

/** A stream the test feeds by hand; it records what the chat sends. */
function fakeStream(events: Event[]) {
  let snapshot: StreamSnapshot = {
    events,
    hasOlder: false,
    loadingOlder: false,
    connection: 'CONNECTED',
    connectionMessage: null,
  };
  const listeners = new Set<() => void>();
  const sent: ClientAction[] = [];
  const stream: ConversationStream = {
    conversationId: 'c1',
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    send: (action) => sent.push(action),
    loadOlder: async () => false,
    reconnect: () => {},
  };
  const append = (...more: Event[]) =>
    act(() => {
      snapshot = { ...snapshot, events: [...snapshot.events, ...more] };
      for (const listener of listeners) listener();
    });
  return { stream, sent, append };
}

const conversation = conversationRecord({ runtime_status: 'STATUS$READY' });

const at = '2026-01-01T00:00:00Z';
const agentState = (
  id: number,
  agent_state: 'RUNNING' | 'AWAITING_USER_INPUT' | 'AWAITING_USER_CONFIRMATION',
): Event => ({
  id,
  source: 'agent',
  timestamp: at,
  observation: 'agent_state_changed',
  extras: { agent_state },
});

function renderChat(stream: ConversationStream) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(queryKeys.config, {
    APP_MODE: 'oss',
    FEATURE_FLAGS: { HIDE_LLM_SETTINGS: false, HIDE_MICROAGENT_MANAGEMENT: false },
    AFFILIATE_API_URL: '',
    PUBLIC_URL: '',
    VSCODE_URL: null,
    SUPPORT_EMAIL: '',
    BUILD_NUMBER: '',
    OPERATOR_MODEL: null,
    SIGN_IN_PROVIDERS: [],
    HOSTED_PAYMENTS: false,
  });
  // Never saved: sound notifications are off.
  queryClient.setQueryData(queryKeys.settings, null);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  return render(<ChatPanel stream={stream} conversation={conversation} />, { wrapper });
}

beforeAll(async () => {
  // happy-dom has no layout: give the list a viewport so the virtualiser renders rows.
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 720 });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 480 });
  await i18next.use(initReactI18next).init({
    lng: 'en',
    resources: { en: { chat, workspace }, de: { chat: germanChat } },
    interpolation: { escapeValue: false },
  });
});
afterEach(async () => {
  cleanup();
  localStorage.clear();
  await i18next.changeLanguage('en');
});

describe('chat panel', () => {
  it('sends a message on Enter, shows it at once and settles it with the echo', async () => {
    const { stream, sent, append } = fakeStream([agentState(1, 'AWAITING_USER_INPUT')]);
    renderChat(stream);
    const box = screen.getByRole('textbox', { name: 'Message to the agent' });
    fireEvent.change(box, { target: { value: 'Build a todo app' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(sent).toHaveLength(1);
    const action = sent[0] as Extract<ClientAction, { action: 'message' }>;
    expect(action).toMatchObject({ action: 'message', args: { content: 'Build a todo app' } });
    expect((box as HTMLTextAreaElement).value).toBe('');
    expect(screen.getByText('Sending…')).toBeTruthy();
    append({
      id: 2,
      source: 'user',
      timestamp: at,
      action: 'message',
      args: { content: 'Build a todo app', client_id: action.id },
    });
    expect(screen.queryByText('Sending…')).toBeNull();
  });

  it('keeps Shift+Enter for a new line and does not send', () => {
    const { stream, sent } = fakeStream([agentState(1, 'AWAITING_USER_INPUT')]);
    renderChat(stream);
    const box = screen.getByRole('textbox', { name: 'Message to the agent' });
    fireEvent.change(box, { target: { value: 'first line' } });
    fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(sent).toEqual([]);
  });

  it('turns send into Stop while the agent runs, with the typing indicator', () => {
    const { stream, sent } = fakeStream([agentState(1, 'RUNNING')]);
    renderChat(stream);
    expect(screen.getByText('Agent is typing...')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(sent).toEqual([{ action: 'change_agent_state', args: { agent_state: 'STOPPED' } }]);
  });

  it('hides the status bar when connected, running and ready; shows it with Refresh when disconnected', () => {
    const { stream } = fakeStream([agentState(1, 'AWAITING_USER_INPUT')]);
    renderChat(stream);
    expect(screen.queryByRole('button', { name: 'Refresh' })).toBeNull();
    cleanup();
    const disconnected = fakeStream([]);
    const snapshot = disconnected.stream.getSnapshot();
    disconnected.stream.getSnapshot = () => ({ ...snapshot, connection: 'DISCONNECTED' });
    renderChat(disconnected.stream);
    expect(screen.getByText('Disconnected from the conversation')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeTruthy();
  });

  it('shows steps with their result, leaves hidden runs out, and puts confirm and reject on the last agent row', () => {
    const { stream, sent } = fakeStream([
      { id: 1, source: 'user', timestamp: at, action: 'run', args: { command: 'whoami', hidden: true } },
      { id: 2, source: 'agent', timestamp: at, action: 'run', args: { command: 'npm test' } },
      {
        id: 3,
        source: 'agent',
        timestamp: at,
        observation: 'run',
        cause: 2,
        content: 'ok',
        extras: { metadata: { exit_code: 0 } },
      },
      agentState(4, 'AWAITING_USER_CONFIRMATION'),
    ]);
    renderChat(stream);
    expect(screen.queryByText(/whoami/)).toBeNull();
    expect(screen.getByText('Ran npm test')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Success' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    fireEvent.click(screen.getByRole('button', { name: 'Reject' }));
    expect(sent).toEqual([
      { action: 'change_agent_state', args: { agent_state: 'USER_CONFIRMED' } },
      { action: 'change_agent_state', args: { agent_state: 'USER_REJECTED' } },
    ]);
  });

  it('points out a medium risk only where the user decides, a high one always', () => {
    const edit = (id: number, risk: 1 | 2, confirmation?: 'awaiting_confirmation'): Event => ({
      id,
      source: 'agent',
      timestamp: at,
      action: 'edit',
      args: {
        path: `/workspace/f${id}.ts`,
        security_risk: risk,
        ...(confirmation && { confirmation_state: confirmation }),
      },
    });
    const { stream } = fakeStream([edit(1, 1), edit(2, 2), edit(3, 1, 'awaiting_confirmation')]);
    const { container } = renderChat(stream);
    const rowOf = (path: string) => screen.getByText(new RegExp(path)).closest('summary')?.textContent ?? '';
    expect(rowOf('f1.ts')).not.toContain('Security risk');
    expect(rowOf('f2.ts')).toContain('Security risk: high');
    expect(rowOf('f3.ts')).toContain('Security risk: medium');
    expect(container.textContent?.match(/Security risk/g)).toHaveLength(2);
  });

  it('cuts a long output as the spec says, and shows all of it on demand', () => {
    const output = `${'a'.repeat(3000)}MIDDLE${'b'.repeat(3000)}`;
    const { stream } = fakeStream([
      { id: 1, source: 'agent', timestamp: at, action: 'run', args: { command: 'make' } },
      {
        id: 2,
        source: 'agent',
        timestamp: at,
        observation: 'run',
        cause: 1,
        content: output,
        extras: { metadata: { exit_code: 0 } },
      },
    ]);
    const { container } = renderChat(stream);
    fireEvent.click(screen.getByText('Ran make'));
    expect(screen.getByText('[1006 characters cut]')).toBeTruthy();
    expect(container.textContent).not.toContain('MIDDLE');
    fireEvent.click(screen.getByRole('button', { name: 'Show all 6006 characters' }));
    expect(container.textContent).toContain(output);
    fireEvent.click(screen.getByRole('button', { name: 'Show less' }));
    expect(container.textContent).not.toContain('MIDDLE');
  });

  it('shows the images a Python cell displayed', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    const { stream } = fakeStream([
      { id: 1, source: 'agent', timestamp: at, action: 'run_ipython', args: { code: 'plot()' } },
      {
        id: 2,
        source: 'agent',
        timestamp: at,
        observation: 'run_ipython',
        cause: 1,
        content: '\n[1 image(s) displayed]',
        extras: { code: 'plot()', image_urls: [png, 'https://tracker.example/pixel.png'] },
      },
    ]);
    renderChat(stream);
    fireEvent.click(screen.getByText('Ran Python code'));
    const images = screen.getAllByRole('img', { name: /the cell displayed/ });
    expect(images.map((image) => image.getAttribute('src'))).toEqual([png]);
  });

  it('words the rows already shown anew when the language changes', async () => {
    const { stream } = fakeStream([
      { id: 1, source: 'agent', timestamp: at, action: 'run', args: { command: 'npm test' } },
      {
        id: 2,
        source: 'agent',
        timestamp: at,
        observation: 'run',
        cause: 1,
        content: 'ok',
        extras: { metadata: { exit_code: 0 } },
      },
    ]);
    renderChat(stream);
    expect(screen.getByRole('img', { name: 'Success' })).toBeTruthy();
    await act(() => i18next.changeLanguage('de'));
    expect(screen.getByText('npm test ausgeführt')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Erfolgreich' })).toBeTruthy();
  });

  it('has no serious or critical accessibility issues', async () => {
    const { stream } = fakeStream([
      { id: 1, source: 'user', timestamp: at, action: 'message', args: { content: 'Hello' } },
      { id: 2, source: 'agent', timestamp: at, action: 'message', args: { content: 'Hi **there**' } },
      agentState(3, 'AWAITING_USER_INPUT'),
    ]);
    const { container } = renderChat(stream);
    const axe = (await import('axe-core')).default;
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(
      results.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => violation.id),
    ).toEqual([]);
  });

  it('keeps a message the server has not echoed, and puts it back in the box on the next visit if it never arrived', async () => {
    const first = fakeStream([agentState(1, 'AWAITING_USER_INPUT')]);
    renderChat(first.stream);
    const box = () => screen.getByRole('textbox', { name: 'Message to the agent' }) as HTMLTextAreaElement;
    fireEvent.change(box(), { target: { value: 'Build a todo app' } });
    fireEvent.keyDown(box(), { key: 'Enter' });
    expect(box().value).toBe('');
    expect(localStorage.getItem('atelier.unsent.c1')).toContain('Build a todo app');
    cleanup();

    // The page was reloaded before any echo (the server had restarted): the words come back.
    renderChat(fakeStream([agentState(1, 'AWAITING_USER_INPUT')]).stream);
    expect(box().value).toBe('Build a todo app');
    expect(localStorage.getItem('atelier.unsent.c1')).toBeNull();
  });

  it('forgets a kept message once its echo is in the history', async () => {
    const first = fakeStream([agentState(1, 'AWAITING_USER_INPUT')]);
    renderChat(first.stream);
    const box = () => screen.getByRole('textbox', { name: 'Message to the agent' }) as HTMLTextAreaElement;
    fireEvent.change(box(), { target: { value: 'Build a todo app' } });
    fireEvent.keyDown(box(), { key: 'Enter' });
    const clientId = (first.sent[0] as Extract<ClientAction, { action: 'message' }>).id;
    cleanup();

    const echo: Event = {
      id: 2,
      source: 'user',
      timestamp: at,
      action: 'message',
      message: 'Build a todo app',
      args: { content: 'Build a todo app', client_id: clientId },
    };
    renderChat(fakeStream([agentState(1, 'AWAITING_USER_INPUT'), echo]).stream);
    expect(box().value).toBe('');
    expect(localStorage.getItem('atelier.unsent.c1')).toBeNull();
  });
});
