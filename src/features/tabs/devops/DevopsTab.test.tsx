import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import chat from '../../../../locales/en/chat.json';
import tabs from '../../../../locales/en/tabs.json';
import { conversationRecord } from '../../../../tests/support/records.ts';
import { DevopsTab } from './DevopsTab.tsx';

// The DevOps tab against the server's answers, as the browser receives them: the spec's texts for
// each failure (§8), the chat's file rules, and a finished workflow.

/** What the server answers, per call ("GET history", "POST execute"); a thrown error is no answer at all. */
const server = vi.hoisted(() => {
  const state = { answers: new Map<string, () => Response | Promise<Response>>() };
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const call = `${request.method} ${new URL(request.url).pathname.split('/').at(-1)}`;
    const answer = state.answers.get(call);
    if (!answer) throw new TypeError('Failed to fetch');
    return answer();
  };
  return state;
});
const json = (status: number, body: unknown) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const conversation = conversationRecord({ status: 'RUNNING', runtime_status: 'STATUS$READY' });

function renderTab() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <DevopsTab conversation={conversation} />
    </QueryClientProvider>,
  );
}
const input = () => screen.getByRole('textbox', { name: 'Message to the DevOps agent' }) as HTMLTextAreaElement;
function send(text: string) {
  fireEvent.change(input(), { target: { value: text } });
  fireEvent.keyDown(input(), { key: 'Enter' });
}

beforeAll(async () => {
  await i18next
    .use(initReactI18next)
    .init({ lng: 'en', resources: { en: { tabs, chat } }, interpolation: { escapeValue: false } });
});
afterEach(() => {
  cleanup();
  server.answers.clear();
});

describe('the DevOps tab', () => {
  it('shows each failure as the agent’s message in the spec’s words', async () => {
    server.answers.set('GET history', json(500, { detail: 'database down' }));
    renderTab();
    await screen.findByText('Failed to initialize session: Server error: database down');

    send('Deploy it');
    expect(screen.getByText('Deploy it')).toBeTruthy();
    await screen.findByText('Error: Network error: the DevOps service may be down.');

    server.answers.set('POST execute', json(405, {}));
    send('Again');
    await screen.findByText("Error: Method not allowed: the DevOps agent's endpoint may not be configured.");

    server.answers.set('POST execute', json(402, { detail: 'Insufficient credits.' }));
    send('Once more');
    await screen.findByText('Error: Insufficient credits.');
    // Shift+Enter adds a line rather than sending.
    fireEvent.change(input(), { target: { value: 'two' } });
    fireEvent.keyDown(input(), { key: 'Enter', shiftKey: true });
    expect(input().value).toBe('two');
  });

  it('starts a new session with start, and words a server error without its own words', async () => {
    server.answers.set('GET history', json(200, { messages: [], infra_hourly_cost: 0 }));
    server.answers.set('POST execute', json(502, {}));
    renderTab();
    await screen.findByText('Failed to start workflow: Server error: Internal server error');
    expect(screen.queryByText('start')).toBeNull();
  });

  it('refuses files outside the chat’s rules with an Error: text', async () => {
    server.answers.set('GET history', json(200, { messages: [], infra_hourly_cost: 0 }));
    server.answers.set('POST execute', json(200, { display_message: 'Hi', is_complete: false, infra_hourly_cost: 0 }));
    renderTab();
    await screen.findByText('Hi');
    const picker = document.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(picker, { target: { files: [new File(['x'], 'setup.exe')] } });
    expect(screen.getByRole('alert').textContent).toBe('Error: File type not supported: setup.exe');
    fireEvent.change(picker, { target: { files: [new File(['x'], 'app.zip')] } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove app.zip' })).toBeTruthy();
  });

  it('shows the agent’s progress while it answers, and keeps it above the reply', async () => {
    const row = (id: string, text: string, sender: 'user' | 'agent') => ({
      id,
      text,
      sender,
      timestamp: '2026-11-26T10:00:00Z',
      is_complete: false,
    });
    const earlier = [row('1', 'start', 'user'), row('2', 'Plan: web-1 at $0.0089/hour. Deploy?', 'agent')];
    server.answers.set('GET history', json(200, { messages: earlier, infra_hourly_cost: 0 }));
    let answer: (response: Response) => void = () => {};
    server.answers.set('POST execute', () => new Promise<Response>((resolve) => (answer = resolve)));
    renderTab();
    await screen.findByText('Plan: web-1 at $0.0089/hour. Deploy?');
    server.answers.set(
      'GET history',
      json(200, {
        messages: [...earlier, row('3', 'yes', 'user'), row('4', 'Deploying web-1 on s-1vcpu-1gb…', 'agent')],
        infra_hourly_cost: 0,
      }),
    );
    send('yes');
    await screen.findByText('Deploying web-1 on s-1vcpu-1gb…', {}, { timeout: 5_000 });
    expect(screen.getByRole('status').textContent).toBe('The DevOps agent is working…');
    answer(json(200, { display_message: 'web-1 is up.', is_complete: false, infra_hourly_cost: 0.00893 })());
    await screen.findByText('web-1 is up.');
    // The step stays, once, above the reply (as a reload shows it); the working status is gone.
    const step = screen.getAllByText('Deploying web-1 on s-1vcpu-1gb…');
    expect(step).toHaveLength(1);
    expect(
      step[0]!.compareDocumentPosition(screen.getByText('web-1 is up.')) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(screen.queryByText('The DevOps agent is working…')).toBeNull();
    expect(screen.getByText('Infrastructure: $0.0089/hour')).toBeTruthy();
  });

  it('shows a finished session with its banner, its cost and the input disabled', async () => {
    server.answers.set(
      'GET history',
      json(200, {
        messages: [
          { id: '1', text: 'start', sender: 'user', timestamp: '2026-11-26T10:00:00Z', is_complete: false },
          { id: '2', text: 'All done.', sender: 'agent', timestamp: '2026-11-26T10:01:00Z', is_complete: true },
        ],
        infra_hourly_cost: 0.00893,
      }),
    );
    renderTab();
    await screen.findByText('The DevOps workflow is complete.');
    expect(screen.getByText('All done.')).toBeTruthy();
    expect(screen.getByText('Infrastructure: $0.0089/hour')).toBeTruthy();
    expect(input().disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
