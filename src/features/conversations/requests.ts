import type { IJsonModel } from 'flexlayout-react';
import type { components } from '../../../openapi/schema.d.ts';
import { dataOf, noContent } from '../../api/client.ts';
import { apiClient } from '../../app/services.ts';

// The conversation calls of the workspace, the sidebar and the home page (openapi/atelier.yaml).

type EventPage = components['schemas']['EventPage'];

const path = (conversationId: string) => ({ params: { path: { conversation_id: conversationId } } });

/** The most conversations the sidebar lists (the spec's limit=100; no virtualisation needed). */
const CONVERSATION_LIST_LIMIT = 100;

export const conversationRequests = {
  list: async (signal?: AbortSignal) =>
    (
      await dataOf(
        apiClient.GET('/api/conversations', { params: { query: { limit: CONVERSATION_LIST_LIMIT } }, signal }),
      )
    ).results,
  /** The conversation's forks (the newest 100), most recently updated first. */
  forks: async (conversationId: string, signal?: AbortSignal) =>
    (
      await dataOf(
        apiClient.GET('/api/conversations', {
          params: { query: { limit: CONVERSATION_LIST_LIMIT, forked_from: conversationId } },
          signal,
        }),
      )
    ).results,
  create: (body: components['schemas']['ConversationCreateRequest']) =>
    dataOf(apiClient.POST('/api/conversations', { body })),
  get: (conversationId: string, signal?: AbortSignal) =>
    dataOf(apiClient.GET('/api/conversations/{conversation_id}', { ...path(conversationId), signal })),
  rename: (conversationId: string, title: string) =>
    dataOf(apiClient.PATCH('/api/conversations/{conversation_id}', { ...path(conversationId), body: { title } })),
  remove: (conversationId: string) =>
    noContent(apiClient.DELETE('/api/conversations/{conversation_id}', path(conversationId))),
  start: (conversationId: string) =>
    dataOf(apiClient.POST('/api/conversations/{conversation_id}/start', { ...path(conversationId), body: {} })),
  stop: (conversationId: string) =>
    dataOf(apiClient.POST('/api/conversations/{conversation_id}/stop', path(conversationId))),
  events: (conversationId: string, query: { beforeId?: number; limit: number }) =>
    dataOf(
      apiClient.GET('/api/conversations/{conversation_id}/events', {
        params: {
          path: { conversation_id: conversationId },
          query: { limit: query.limit, ...(query.beforeId === undefined ? {} : { before_id: query.beforeId }) },
        },
      }),
    ) as Promise<EventPage>,
  /** The workspace as a zip file. */
  workspaceZip: (conversationId: string) =>
    dataOf(
      apiClient.GET('/api/conversations/{conversation_id}/zip-directory', { ...path(conversationId), parseAs: 'blob' }),
    ) as Promise<Blob>,
  microagents: async (conversationId: string) =>
    (await dataOf(apiClient.GET('/api/conversations/{conversation_id}/microagents', path(conversationId)))).microagents,
  /** Every event, oldest first (the system message and the costs are read from it). */
  trajectory: async (conversationId: string) =>
    (await dataOf(apiClient.GET('/api/conversations/{conversation_id}/trajectory', path(conversationId)))).trajectory,
};

/** The server keeps a layout as this client gave it, so what comes back is the flexlayout JSON that went in. */
const asLayout = (stored: Record<string, unknown>) => stored as unknown as IJsonModel;

export const layoutRequests = {
  list: async () =>
    (await dataOf(apiClient.GET('/api/user/layouts'))).layouts.map((entry) => ({
      name: entry.name,
      layout: asLayout(entry.layout),
    })),
  save: async (name: string, layout: IJsonModel) => {
    const saved = await dataOf(
      apiClient.PUT('/api/user/layouts/{name}', {
        params: { path: { name } },
        body: { layout: layout as unknown as Record<string, unknown> },
      }),
    );
    return { name: saved.name, layout: asLayout(saved.layout) };
  },
};
