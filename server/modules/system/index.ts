import type { Database } from '../../db/index.ts';
import { HttpError } from '../../shared/http-error.ts';
import type { Handlers } from '../../shared/operations.ts';

export function systemHandlers(database: Database): Handlers {
  return {
    getHealth: async () => ({ status: 'ok' }),
    getReady: async () => {
      try {
        await database.ping();
      } catch {
        throw new HttpError(503, 'Database unreachable');
      }
      return { status: 'ok' };
    },
  };
}
