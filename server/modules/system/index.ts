import type { Database } from '../../db/index.ts';
import { systemHandlers } from './handlers.ts';

/** Health and readiness: no behaviour beyond answering its operations. */
export function createSystemModule(deps: { database: Database }) {
  return { handlers: systemHandlers(deps.database) };
}
