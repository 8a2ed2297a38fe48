// Creates the embedded database in $PGLITE_DIR, then exits. Creating it grows
// PGlite's memory to ~700 MB, of which a process keeps ~150 MB after closing it; created in a
// process of its own, the server's opening of it starts small.
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_OPTIONS } from './pglite-options.ts';

const dir = process.env.PGLITE_DIR;
if (!dir) throw new Error('PGLITE_DIR must name the directory to create the database in');
const client = await PGlite.create(dir, PGLITE_OPTIONS);
await client.close();
