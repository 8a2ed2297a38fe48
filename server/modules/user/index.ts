import type { Db } from '../../db/index.ts';
import { userHandlers } from './handlers.ts';

/** Saved layouts: no behaviour beyond answering its operations. */
export function createUserModule(deps: { db: Db }) {
  return { handlers: userHandlers(deps.db) };
}
