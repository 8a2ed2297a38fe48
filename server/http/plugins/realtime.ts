import fastifyWebsocket from '@fastify/websocket';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { USER_CHANGED } from '../../modules/auth/index.ts';
import { BALANCE_CHANGED, balanceMicros, microsToDollars } from '../../modules/credits/index.ts';
import type { Modules } from '../../modules/index.ts';
import type { EventBus } from '../../realtime/event-bus.ts';
import { registerSocket } from '../../realtime/socket.ts';
import { EventStreams } from '../../realtime/streams.ts';
import type { AuthUser } from '../../shared/operations.ts';
import { FORWARDED_HEADER } from '../forward.ts';

export interface RealtimeOptions {
  config: Config;
  db: Db;
  modules: Modules;
  bus: EventBus;
  localUser: AuthUser | null;
}

/** The socket of conversations' and onboarding chats' events. */
export const realtime = fp<RealtimeOptions>(
  async (app, { config, db, modules, bus, localUser }) => {
    // A client's frame is at most what a REST body may be (ws would take 100 MB).
    await app.register(fastifyWebsocket, { options: { maxPayload: 10 * 1024 * 1024 } });
    const { events, service, manager } = modules.conversations;
    registerSocket(app, {
      identify: async (token) => (token ? await modules.auth.authenticate(token) : null) ?? localUser,
      bySessionKey: service.bySessionKey,
      onUserChanged: (listener) => bus.onAnnouncement(USER_CHANGED, listener),
      onBalanceChanged: (listener) => bus.onAnnouncement(BALANCE_CHANGED, listener),
      balance: async (userId) => microsToDollars(await balanceMicros(db, userId)),
      limits: config.socketLimits,
      owns: async (user, id) => (await service.find(user, id)) !== null,
      act: service.act,
      terminal: (conversationId, terminalId) => manager.session(conversationId)?.terminals.get(terminalId) ?? null,
      ownerElsewhere: async (conversationId, headers) =>
        headers[FORWARDED_HEADER] === undefined ? manager.ownerElsewhere(conversationId) : null,
      passOnHeaders: { [FORWARDED_HEADER]: config.nodeUrl },
      events,
      streams: new EventStreams(bus, events, app.log),
      chats: {
        ...modules.chatOnboarding.socket,
        streams: new EventStreams(bus, modules.chatOnboarding.socket.events, app.log),
      },
    });
  },
  { name: 'realtime' },
);
