import type { PGliteOptions } from '@electric-sql/pglite';
import { PGlite } from '@electric-sql/pglite';

// 32 MB of shared buffers instead of PostgreSQL's 128 MB: the embedded database's files stay in
// the operating system's cache anyway, and the idle server keeps ~125 MB less resident.
export const PGLITE_OPTIONS: PGliteOptions = {
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
};
