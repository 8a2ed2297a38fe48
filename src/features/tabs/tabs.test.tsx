import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import tabs from '../../../locales/en/tabs.json';
import type { ConversationStream } from '../../realtime/types.ts';
import { BrowserTab } from './browser/BrowserTab.tsx';
import { ChangesTab } from './changes/ChangesTab.tsx';
import { JupyterTab } from './jupyter/JupyterTab.tsx';
import { conversationRecord } from '../../../tests/support/records.ts';
import type { Event } from '../../../openapi/types.ts';

const at = '2026-01-01T00:00:00Z';

function staticStream(events: Event[]): ConversationStream {
  const snapshot = {
    events,
    hasOlder: false,
    loadingOlder: false,
    connection: 'CONNECTED' as const,
    connectionMessage: null,
  };
  return {
    conversationId: 'c1',
    subscribe: () => () => {},
    getSnapshot: () => snapshot,
    send: () => {},
    loadOlder: async () => false,
    reconnect: () => {},
  };
}

const conversation = conversationRecord({ status: 'STARTING', created_at: at, last_updated_at: at });

function renderTab(tab: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={queryClient}>{tab}</QueryClientProvider>);
}

beforeAll(async () => {
  await i18next
    .use(initReactI18next)
    .init({ lng: 'en', resources: { en: { tabs } }, interpolation: { escapeValue: false } });
});
afterEach(cleanup);

describe('workspace tabs', () => {
  it('browser: no page loaded, then the latest url and screenshot', () => {
    renderTab(<BrowserTab stream={staticStream([])} conversation={conversation} />);
    expect(screen.getByText('No page loaded yet.')).toBeTruthy();
    cleanup();
    const browse: Event = {
      id: 1,
      source: 'agent',
      timestamp: at,
      observation: 'browse',
      extras: { url: 'https://a.test/', screenshot: 'data:image/png;base64,AA' },
    };
    renderTab(<BrowserTab stream={staticStream([browse])} conversation={conversation} />);
    expect((screen.getByRole('textbox', { name: 'Current address' }) as HTMLInputElement).value).toBe(
      'https://a.test/',
    );
    expect(screen.getByRole('img', { name: 'Screenshot of https://a.test/' })).toBeTruthy();
  });

  it('changes: waits for the runtime before asking for changes', () => {
    renderTab(<ChangesTab stream={staticStream([])} conversation={conversation} />);
    expect(screen.getByText('Waiting for the runtime to start…')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Refresh' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('notebook: Python input cells and output cells', () => {
    const events: Event[] = [
      { id: 1, source: 'agent', timestamp: at, action: 'run_ipython', args: { code: 'print("hi")' } },
      { id: 2, source: 'agent', timestamp: at, observation: 'run_ipython', cause: 1, content: 'hi' },
    ];
    renderTab(<JupyterTab stream={staticStream(events)} conversation={conversation} />);
    expect(screen.getByRole('region', { name: 'Input' }).textContent).toContain('print("hi")');
    expect(screen.getByRole('region', { name: 'Output' }).textContent).toContain('hi');
  });
});
