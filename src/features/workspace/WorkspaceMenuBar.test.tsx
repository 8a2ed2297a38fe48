import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { ConversationChange } from '../../../machines/conversation-change.ts';
import { conversationMachine } from '../../../machines/conversation.ts';
import { layoutMachine, type SavedLayout } from '../../../machines/layout.ts';
import { openComponents } from '../../../machines/layout-json.ts';
import chat from '../../../locales/en/chat.json';
import common from '../../../locales/en/common.json';
import conversations from '../../../locales/en/conversations.json';
import workspace from '../../../locales/en/workspace.json';
import { queryKeys } from '../../api/queries.ts';
import type { ConversationStream } from '../../realtime/types.ts';
import { FeaturesDialog } from './FeaturesDialog.tsx';
import { createScreenModel } from './screen-model.ts';
import type { ConversationActor, LayoutActor } from './use-workspace.ts';
import { WorkspaceMenuBar } from './WorkspaceMenuBar.tsx';
import { conversationRecord } from '../../../tests/support/records.ts';
import type { ClientAction, Conversation, Deployment } from '../../../openapi/types.ts';

const record = conversationRecord({ title: 'Shop', runtime_status: 'STATUS$READY' });

/** The conversation's live deployments, as the deployments call answered them. */
function renderMenuBar(conversation: Conversation, deployments: Deployment[] = []) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  queryClient.setQueryData(queryKeys.conversation(conversation.conversation_id, 'deployments'), {
    deployments,
    total_cost_usd: 0,
  });
  const sent: ClientAction[] = [];
  const changes: ConversationChange[] = [];
  const snapshot = {
    events: [],
    hasOlder: false,
    loadingOlder: false,
    connection: 'CONNECTED' as const,
    connectionMessage: null,
  };
  const stream: ConversationStream = {
    conversationId: 'c1',
    subscribe: () => () => {},
    getSnapshot: () => snapshot,
    send: (action) => sent.push(action),
    loadOlder: async () => false,
    reconnect: () => {},
  };
  // The record is what the menus read; the conversation machine itself can stay loading.
  const conversationActor = createActor(
    conversationMachine.provide({
      actors: { fetchConversation: fromPromise(() => new Promise<Conversation>(() => {})) },
    }),
    { input: { conversationId: 'c1' } },
  ).start();
  const layout = createActor(
    layoutMachine.provide({ actors: { listLayouts: fromPromise(async (): Promise<SavedLayout[]> => []) } }),
    { input: {} },
  ).start();
  render(
    <QueryClientProvider client={queryClient}>
      <WorkspaceMenuBar
        conversation={conversationActor as unknown as ConversationActor}
        record={conversation}
        stream={stream}
        layout={layout as unknown as LayoutActor}
        screen={createScreenModel()}
        change={(change) => changes.push(change)}
      />
    </QueryClientProvider>,
  );
  return { sent, layout, changes };
}

/** Opens a menu from the keyboard; its code loads after the first paint, so the items come a moment later. */
async function openMenu(name: string) {
  fireEvent.keyDown(screen.getByRole('button', { name }), { key: 'ArrowDown' });
  await waitFor(() => expect(screen.getByRole('button', { name }).getAttribute('aria-expanded')).toBe('true'));
}

const item = (name: string | RegExp) => screen.getByRole('menuitem', { name });
const isDisabled = (element: HTMLElement) => element.getAttribute('aria-disabled') === 'true';

beforeAll(async () => {
  await i18next.use(initReactI18next).init({
    lng: 'en',
    resources: { en: { chat, common, conversations, workspace } },
    interpolation: { escapeValue: false },
  });
});
afterEach(cleanup);

describe('workspace menu bar', () => {
  it('offers the push only with a git provider and a repository, and sends the chat suggestion prompt', async () => {
    const { sent } = renderMenuBar(record);
    await openMenu('File');
    expect(isDisabled(item(/^Push to repository host/))).toBe(true);
    expect(item(/^Push to repository host/).textContent).toContain(
      'Connect a git provider and select a repository first.',
    );
    expect(isDisabled(item(/^Deployments/))).toBe(false);
    fireEvent.click(item(/^Push to repository host/));
    expect(sent).toEqual([]);
    cleanup();

    const connected = renderMenuBar({
      ...record,
      git_provider: 'github',
      selected_repository: 'acme/shop',
      selected_branch: 'feature/cart',
    });
    await openMenu('File');
    const push = item('Push to repository host');
    expect(isDisabled(push)).toBe(false);
    fireEvent.click(push);
    expect(connected.sent).toHaveLength(1);
    expect(connected.sent[0]).toMatchObject({
      action: 'message',
      args: {
        content:
          'Please push the changes to the branch feature/cart of acme/shop. Do not push to main, master or deploy.',
      },
    });
  });

  it('lists the Window items in the spec order; App and App environments → Development open the web app, staging and production wait for a deployment', async () => {
    const { layout } = renderMenuBar(record);
    await openMenu('Window');
    const names = screen.getAllByRole('menuitem').map((element) => element.textContent);
    expect(names).toEqual([
      'Chat',
      'VS Code',
      'Terminal',
      'Jupyter',
      'Browser',
      'App',
      'Changes',
      'DevOps Agent',
      'App environments›',
    ]);
    // Close the web app's tab, then App opens it again.
    act(() => layout.send({ type: 'SELECT', layout: 'default' }));
    const open = () => openComponents(layout.getSnapshot().context.layout);
    expect(open()).not.toContain('app');
    fireEvent.click(item('App'));
    expect(open()).toContain('app');

    cleanup();
    const again = renderMenuBar(record).layout;
    act(() => again.send({ type: 'SELECT', layout: 'default' }));
    await openMenu('Window');
    fireEvent.click(item('App environments'));
    expect(isDisabled(await screen.findByRole('menuitem', { name: /^Staging/ }))).toBe(true);
    expect(item(/^Production/).textContent).toContain('Ask the DevOps agent to deploy it.');
    expect(isDisabled(item('Development'))).toBe(false);
    fireEvent.click(item('Development'));
    expect(openComponents(again.getSnapshot().context.layout)).toContain('app');
  });

  it('names a menu item without its shortcut, which it shows and gives as aria-keyshortcuts', async () => {
    renderMenuBar(record);
    await openMenu('Layout');
    const maximise = item('Maximise');
    expect(maximise.textContent).toBe('Maximise (Alt+Shift+M)');
    expect(maximise.getAttribute('aria-keyshortcuts')).toBe('Alt+Shift+M');
  });

  it('opens the staging deployment from App → Staging in a new browser tab', async () => {
    const opened: unknown[][] = [];
    const open = window.open;
    window.open = (...args: unknown[]) => (opened.push(args), null);
    try {
      renderMenuBar(record, [
        {
          id: 'd1',
          droplet_name: 'shop-staging',
          droplet_ip: null,
          url: 'http://localhost:41234',
          environment: 'staging',
          size_slug: 'local',
          hourly_cost_usd: 0,
          region: 'local',
          hours_alive: 0.1,
          created_at: '2026-11-26T10:00:00Z',
          total_cost_usd: 0,
        },
      ]);
      await openMenu('Window');
      fireEvent.click(item('App environments'));
      expect(isDisabled(await screen.findByRole('menuitem', { name: /^Production/ }))).toBe(true);
      fireEvent.click(item('Staging'));
      expect(opened).toEqual([['http://localhost:41234', '_blank', 'noopener,noreferrer']]);
    } finally {
      window.open = open;
    }
  });

  it('renames the conversation from its title as the sidebar does', () => {
    const { changes } = renderMenuBar(record);
    fireEvent.click(screen.getByRole('button', { name: 'Rename conversation Shop' }));
    const field = screen.getByRole('textbox', { name: 'Conversation title' });
    fireEvent.change(field, { target: { value: ' Shop 2 ' } });
    fireEvent.blur(field);
    expect(changes).toEqual([
      { kind: 'rename', conversationId: record.conversation_id, current: 'Shop', title: ' Shop 2 ' },
    ]);
  });
});

describe('Features dialog', () => {
  it('filters the samples by name and starts a new feature', async () => {
    let started = 0;
    render(<FeaturesDialog open onOpenChange={() => {}} onNewFeature={() => (started += 1)} />);
    const rows = () => screen.queryAllByRole('listitem').map((row) => row.textContent);
    // The dialog's code loads when it first opens.
    await screen.findAllByRole('listitem');
    expect(rows()).toHaveLength(6);
    for (const status of ['Warning', 'Completed', 'Error', 'Pending'])
      expect(rows().some((row) => row?.endsWith(status))).toBe(true);

    const search = screen.getByRole('searchbox', { name: 'Search features' });
    fireEvent.change(search, { target: { value: '  DARK ' } });
    expect(rows()).toEqual(['Dark modePending']);
    fireEvent.change(search, { target: { value: 'export' } });
    expect(rows()).toEqual(['CSV exportPending']);
    fireEvent.change(search, { target: { value: 'nothing like this' } });
    expect(rows()).toEqual([]);
    expect(screen.getByRole('status').textContent).toBe('No feature matches your search.');

    fireEvent.click(screen.getByRole('button', { name: 'New Feature' }));
    expect(started).toBe(1);
  });
});
