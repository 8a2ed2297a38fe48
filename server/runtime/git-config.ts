/**
 * The few git settings that change which files `git add -A` records and how: read from config
 * files' text (git-config(1) syntax), the later file winning, as git reads global then local.
 */
export interface SnapshotSettings {
  /** Why a snapshot must be left to git itself; null when the files can be read directly. */
  unsupported: string | null;
  /** core.excludesFile, as written (a leading ~/ is the home directory). */
  excludesFile: string | null;
}

/** Settings under which git records files differently from their bytes, modes and names on disk, with their harmless value. */
const HARMLESS: Record<string, string> = {
  'core.bare': 'false',
  'core.filemode': 'true',
  'core.symlinks': 'true',
  'core.ignorecase': 'false',
  'core.precomposeunicode': 'false',
  'core.sparsecheckout': 'false',
  'core.splitindex': 'false',
  'index.sparse': 'false',
};
const TRUE = new Set(['true', 'yes', 'on', '1', '']);
const FALSE = new Set(['false', 'no', 'off', '0']);
const ALLOWED_EXTENSIONS = new Set(['extensions.objectformat=sha1', 'extensions.noop', 'extensions.partialclone']);

/** `key=value` lines of a config file's text, keys lower-cased as section.name (subsections kept as written). */
function entries(text: string): [string, string][] {
  const found: [string, string][] = [];
  let section = '';
  const lines = text.replace(/\\\r?\n/g, '').split('\n');
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(.*)$/.exec(line);
    if (header) {
      section =
        header[2] === undefined
          ? (header[1] as string).toLowerCase()
          : `${(header[1] as string).toLowerCase()}.${header[2]}`;
      continue;
    }
    const assignment = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!assignment) continue;
    found.push([`${section}.${(assignment[1] as string).toLowerCase()}`, value(assignment[2] ?? '')]);
  }
  return found;
}

/** A value without its comment and quotes, escapes resolved. */
function value(raw: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i += 1) {
    const char = raw[i] as string;
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '#' || char === ';')) break;
    else if (char === '\\' && i + 1 < raw.length) {
      i += 1;
      const next = raw[i] as string;
      out += next === 'n' ? '\n' : next === 't' ? '\t' : next;
    } else out += char;
  }
  return quoted ? out : out.trim();
}

/** The settings of config files' texts, in the order git reads them (global first). */
export function snapshotSettings(texts: readonly string[]): SnapshotSettings {
  const settings = new Map<string, string>();
  for (const text of texts) for (const [key, setting] of entries(text)) settings.set(key, setting);
  let excludesFile: string | null = null;
  for (const [key, setting] of settings) {
    if (key === 'include.path' || key.startsWith('includeif.'))
      return { unsupported: 'config includes', excludesFile: null };
    if (key.startsWith('extensions.') && !ALLOWED_EXTENSIONS.has(key) && !ALLOWED_EXTENSIONS.has(`${key}=${setting}`))
      return { unsupported: key, excludesFile: null };
    if (key === 'core.worktree') return { unsupported: key, excludesFile: null };
    const harmless = HARMLESS[key];
    if (harmless !== undefined) {
      const truth = TRUE.has(setting.toLowerCase()) ? 'true' : FALSE.has(setting.toLowerCase()) ? 'false' : setting;
      if (truth !== harmless) return { unsupported: `${key}=${setting}`, excludesFile: null };
    }
    if (key === 'core.excludesfile') excludesFile = setting;
  }
  return { unsupported: null, excludesFile };
}
