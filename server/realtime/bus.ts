import type { EventBus } from './event-bus.ts';
import { InProcessEventBus } from './local-bus.ts';
import { PostgresEventBus } from './postgres-bus.ts';

/**
 * LISTEN/NOTIFY when the database is a PostgreSQL server (other nodes may share it), else
 * in-process (PGlite is embedded: one process owns it).
 */
export async function createEventBus(
  databaseUrl: string | undefined,
  log: ConstructorParameters<typeof PostgresEventBus>[1],
): Promise<EventBus> {
  if (!databaseUrl) return new InProcessEventBus();
  const bus = new PostgresEventBus(databaseUrl, log);
  await bus.start();
  return bus;
}
