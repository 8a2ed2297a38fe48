import type { FastifyInstance } from 'fastify';
import type { AuthUser } from '../shared/operations.ts';

export interface SocketDeps {
  /** The user behind a token (the local user in oss mode), or null. */
  identify(token: string | null): Promise<AuthUser | null>;
}

type ErrorFrame = { error: true; message: string; error_code: number };

/**
 * The conversation event socket (ARCHITECTURE.md §5) at /socket. The caller authenticates
 * with `auth_token` in the query or a bearer header; frames are JSON.
 */
export function registerSocket(app: FastifyInstance, deps: SocketDeps) {
  app.get('/socket', { websocket: true }, async (socket, request) => {
    const query = request.query as Record<string, string | undefined>;
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const user = await deps.identify(query.auth_token ?? bearer ?? null);
    const fail = (frame: ErrorFrame, code: number) => {
      socket.send(JSON.stringify(frame));
      socket.close(code, frame.message);
    };
    if (!user) return fail({ error: true, message: 'Session expired.', error_code: 401 }, 4401);
    // No conversation exists yet for anyone: conversations arrive with their own module.
    return fail({ error: true, message: 'Conversation not found', error_code: 404 }, 4404);
  });
}
