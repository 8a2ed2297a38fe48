import { messages, protocol, types, type PGlite, type Results } from '@electric-sql/pglite';

const keepText = (value: string) => value;

/** The column types drizzle reads as text and maps itself (what its PGlite driver asks for). */
const DRIZZLE_PARSERS = {
  [types.TIMESTAMP]: keepText,
  [types.TIMESTAMPTZ]: keepText,
  [types.INTERVAL]: keepText,
  [types.DATE]: keepText,
  1231: keepText, // numeric[]
  1115: keepText, // timestamp[]
  1185: keepText, // timestamptz[]
  1187: keepText, // interval[]
  1182: keepText, // date[]
};

type RowMode = 'array' | 'object';
type Field = { name: string; dataTypeID: number };
type Queryable = Pick<PGlite, 'query'>;
type QueryFunction = (text: string, params?: unknown[], options?: { rowMode?: RowMode }) => Promise<Results>;

/** Values sent as text for PostgreSQL to type from the statement, as node-postgres sends them. */
function asText(value: unknown): string | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  return undefined; // anything else is typed by PGlite's own query()
}

function concat(parts: Uint8Array[]) {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

function results(answer: { name: string }[], rowMode: RowMode | undefined): Results {
  let fields: Field[] = [];
  const rows: unknown[] = [];
  let affectedRows = 0;
  for (const message of answer) {
    if (message instanceof messages.DatabaseError) throw message;
    if (message instanceof messages.RowDescriptionMessage)
      fields = message.fields.map(({ name, dataTypeID }) => ({ name, dataTypeID }));
    else if (message instanceof messages.DataRowMessage) {
      const row = message.fields.map((value, i) =>
        types.parseType(value as string | null, fields[i]?.dataTypeID ?? 0, DRIZZLE_PARSERS),
      );
      rows.push(rowMode === 'array' ? row : Object.fromEntries(row.map((value, i) => [fields[i]?.name, value])));
    } else if (message instanceof messages.CommandCompleteMessage) {
      const [command, ...rest] = message.text.split(' ');
      if (['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(command ?? '')) affectedRows += Number(rest.at(-1));
    }
  }
  return { rows, fields, affectedRows } as Results;
}

/**
 * Every statement is prepared once under a name and afterwards only bound and executed, as
 * postgres.js does: parsing and planning are most of a small query's time in the embedded
 * database (a read by primary key: 0.23 ms each time, 0.09 ms prepared). Each query is one
 * exchange (Parse when new, Bind, Describe, Execute, Sync), where PGlite's own query() makes
 * five. The least recently used statements are closed beyond `limit`.
 */
class PreparedStatements {
  /** Statement text → name, least recently used first. */
  private readonly names = new Map<string, string>();
  private readonly closing: string[] = [];
  private counter = 0;

  constructor(
    private readonly pg: PGlite,
    private readonly limit: number,
  ) {}

  get size() {
    return this.names.size;
  }

  run(text: string, values: (string | null)[], rowMode: RowMode | undefined): Promise<Results> {
    return this.pg._runExclusiveQuery(async () => {
      const { serialize } = protocol;
      const known = this.names.get(text);
      if (known) this.names.delete(text);
      const name = known ?? `atelier_${++this.counter}`;
      const closes = this.closing.splice(0).map((closed) => serialize.close({ type: 'S', name: closed }));
      const { messages: answer } = await this.pg.execProtocol(
        concat([
          ...closes, // they succeed whatever follows, even in a failed transaction
          ...(known ? [] : [serialize.parse({ name, text, types: [] })]),
          serialize.bind({ statement: name, values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
        { throwOnError: false },
      );
      // A statement that failed to parse does not exist; one that failed later does, and is kept.
      if (known || answer.some((message) => message.name === 'parseComplete')) this.keep(text, name);
      return results(answer, rowMode);
    });
  }

  private keep(text: string, name: string) {
    this.names.set(text, name);
    if (this.names.size <= this.limit) return;
    const [oldest, oldestName] = this.names.entries().next().value as [string, string];
    this.names.delete(oldest);
    this.closing.push(oldestName);
  }
}

/**
 * The client drizzle talks to on the embedded database (see PreparedStatements). A value that
 * is not text, a number, a boolean or a date goes through PGlite's own query(), which types it.
 */
export function clientForDrizzle(pg: PGlite, options: { maxStatements?: number } = {}) {
  const statements = new PreparedStatements(pg, options.maxStatements ?? 500);
  const query =
    (fallback: Queryable, exclusive: <T>(run: () => Promise<T>) => Promise<T>): QueryFunction =>
    (text, params = [], queryOptions) => {
      const values = params.map(asText);
      if (values.some((value) => value === undefined))
        return fallback.query(text, params, { ...queryOptions, parsers: DRIZZLE_PARSERS });
      return exclusive(() => statements.run(text, values as (string | null)[], queryOptions?.rowMode));
    };
  return {
    // Outside a transaction, a query waits for any transaction under way, as PGlite's own does.
    query: query(pg, (run) => pg._runExclusiveTransaction(run)),
    transaction: <T>(run: (tx: { query: QueryFunction }) => Promise<T>) =>
      pg.transaction((tx) => run({ query: query(tx, (next) => next()) })),
    /** How many statements are prepared now. */
    get preparedStatements() {
      return statements.size;
    },
  };
}
