import type { Database } from '../../db/index.ts';
import { Unavailable } from '../../shared/domain-errors.ts';
import type { Handlers } from '../../shared/operations.ts';

export function systemHandlers(database: Database): Handlers {
  return {
    getHealth: async () => ({ status: 'ok' }),
    getReady: async () => {
      try {
        await database.ping();
      } catch {
        throw new Unavailable('Database unreachable');
      }
      return { status: 'ok' };
    },
  };
}
