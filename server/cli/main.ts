import { parseConfig } from '../config.ts';
import { DataDirInUseError, lockHolder } from '../db/data-dir-lock.ts';
import { openDatabase } from '../db/index.ts';
import { USER_CHANGED } from '../modules/auth/index.ts';
import { PostgresEventBus } from '../realtime/postgres-bus.ts';
import { callAdminChannel } from './admin-channel.ts';
import { isCommand, runCommand, usage } from './commands.ts';

/**
 * The operator's command line; same configuration (DATA_DIR, DATABASE_URL) as the server. On
 * PostgreSQL it opens the database itself, as any number of processes may. The embedded
 * database belongs to one process: while a server holds it, the command runs in that server.
 */
export async function runAdmin(args: string[], out: (line: string) => void = console.log): Promise<number> {
  if (!isCommand(args)) {
    out(usage);
    return 2;
  }
  const config = parseConfig();
  const holder = config.databaseUrl ? null : lockHolder(config.dataDir);
  if (holder?.adminSocket) {
    const result = await callAdminChannel(holder.adminSocket, args);
    for (const line of result.lines) out(line);
    return result.code;
  }
  if (holder) {
    out(
      `The embedded database in ${config.dataDir} is open in another process (pid ${holder.pid}) that takes no commands; try again once it has started, or stop it.`,
    );
    return 1;
  }
  let database;
  try {
    database = await openDatabase(config);
  } catch (error) {
    // A server started in the meantime.
    if (error instanceof DataDirInUseError) return (out(error.message), 1);
    throw error;
  }
  // Servers sharing the PostgreSQL database hear of changed accounts over its event bus; an
  // embedded database opened here has no server running on it.
  const bus = config.databaseUrl
    ? new PostgresEventBus(config.databaseUrl, { warn: (_, message) => out(message) })
    : null;
  try {
    await database.migrate();
    return await runCommand(database.db, args, out, async (userId) => void (await bus?.announce(USER_CHANGED, userId)));
  } catch (error) {
    out(error instanceof Error ? error.message : String(error));
    return 1;
  } finally {
    await bus?.close();
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await runAdmin(process.argv.slice(2));
