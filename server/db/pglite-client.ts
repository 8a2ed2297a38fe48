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

/** The backend messages an answer is read for (their type bytes). */
const PARSE_COMPLETE = 0x31; // '1'
const ROW_DESCRIPTION = 0x54; // 'T'
const DATA_ROW = 0x44; // 'D'
const COMMAND_COMPLETE = 0x43; // 'C'
const ERROR_RESPONSE = 0x45; // 'E'

/**
 * Reads an answer's rows from its bytes. PGlite's own parser copies every field into an
 * ArrayBuffer of its own before decoding it (about 1 µs each; 180 fields in a page of the
 * conversation list); here each is decoded straight from the answer. `failed`: it holds an
 * error (after which the server sends nothing but its readiness).
 */
function readAnswer(bytes: Uint8Array, rowMode: RowMode | undefined) {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let fields: Field[] = [];
  const rows: unknown[] = [];
  let affectedRows = 0;
  let parsed = false;
  let failed = false;
  for (let at = 0, end: number; at + 5 <= buffer.length; at = end) {
    const type = buffer[at];
    end = at + 1 + buffer.readInt32BE(at + 1);
    let p = at + 5;
    if (type === PARSE_COMPLETE) parsed = true;
    else if (type === ERROR_RESPONSE) failed = true;
    else if (type === ROW_DESCRIPTION) {
      const count = buffer.readInt16BE(p);
      p += 2;
      fields = [];
      for (let i = 0; i < count; i++) {
        const nameEnd = buffer.indexOf(0, p);
        // After the name: table oid (4), column number (2), type oid (4), type size (2), modifier (4), format (2).
        fields.push({ name: buffer.toString('utf8', p, nameEnd), dataTypeID: buffer.readInt32BE(nameEnd + 7) });
        p = nameEnd + 19;
      }
    } else if (type === DATA_ROW) {
      const count = buffer.readInt16BE(p);
      p += 2;
      const row: unknown[] = new Array(count);
      for (let i = 0; i < count; i++) {
        const length = buffer.readInt32BE(p);
        p += 4;
        const text = length < 0 ? null : buffer.toString('utf8', p, (p += length));
        row[i] = types.parseType(text as string, fields[i]?.dataTypeID ?? 0, DRIZZLE_PARSERS);
      }
      rows.push(rowMode === 'array' ? row : Object.fromEntries(row.map((value, i) => [fields[i]?.name, value])));
    } else if (type === COMMAND_COMPLETE) {
      const [command, ...rest] = buffer.toString('utf8', p, end - 1).split(' ');
      if (['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(command ?? '')) affectedRows += Number(rest.at(-1));
    }
  }
  return { results: { rows, fields, affectedRows } as Results, parsed, failed };
}

/** The DatabaseError of an answer that holds one, as PGlite's parser makes it (its code, constraint, … as drizzle reads them). */
function databaseError(bytes: Uint8Array): Error {
  let error: Error | undefined;
  new protocol.Parser().parse(bytes, (message) => {
    if (message instanceof messages.DatabaseError) error ??= message;
  });
  return error ?? new Error('The embedded database answered with an error it did not describe');
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
      const chunks: Uint8Array[] = [];
      // The raw answer, which PGlite hands over in pieces of its receive buffer (copied: it is reused).
      await this.pg.execProtocolRawStream(
        concat([
          ...closes, // they succeed whatever follows, even in a failed transaction
          ...(known ? [] : [serialize.parse({ name, text, types: [] })]),
          serialize.bind({ statement: name, values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
        { onRawData: (chunk) => chunks.push(chunk.slice()) },
      );
      const bytes = chunks.length === 1 ? chunks[0]! : concat(chunks);
      const answer = readAnswer(bytes, rowMode);
      // A statement that failed to parse does not exist; one that failed later does, and is kept.
      if (known || answer.parsed) this.keep(text, name);
      if (answer.failed) throw databaseError(bytes);
      return answer.results;
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
 * Kept over drizzle's own PGlite driver because `npm run bench -- pglite-client` measured it
 * 5.4× as fast on pages of conversation events and 1.6× on usage debits (one run, alternating).
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
