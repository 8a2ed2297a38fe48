// `create-pglite.ts <dir>`: creates the embedded database in <dir>, then exits. Creating it grows
// PGlite's memory to ~700 MB, of which a process keeps ~150 MB after closing it; created in a
// process of its own, the server's opening of it starts small.
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_OPTIONS } from './pglite-options.ts';

const [dir] = process.argv.slice(2);
if (!dir) throw new Error('usage: create-pglite.ts <dir>');
const client = await PGlite.create(dir, PGLITE_OPTIONS);
await client.close();
