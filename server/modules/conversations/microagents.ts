import { parseYaml } from '../../shared/yaml.ts';
import type { RuntimeSession } from '../../runtime/types.ts';

interface Microagent {
  name: string;
  type: 'repo' | 'knowledge';
  triggers: string[];
  content: string;
}

/** Where a workspace keeps its microagents (the OpenHands layout the spec's examples use). */
const MICROAGENT_DIR = '.openhands/microagents';

/**
 * Reads one microagent file: optional YAML front matter (`name`, `type`/`agent`, `triggers`)
 * then the content. With triggers it is a knowledge microagent, loaded when a trigger word
 * appears; without, a repo microagent, always loaded.
 */
export function parseMicroagent(fileName: string, text: string): Microagent {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  let meta: Record<string, unknown> = {};
  if (match) {
    try {
      const parsed = parseYaml(match[1] ?? '');
      if (parsed && typeof parsed === 'object') meta = parsed as Record<string, unknown>;
    } catch {
      // Unreadable front matter: the whole file is the content, as a repo microagent.
    }
  }
  const triggers = Array.isArray(meta.triggers) ? meta.triggers.filter((t): t is string => typeof t === 'string') : [];
  const declared = meta.type ?? meta.agent;
  const type = declared === 'repo' ? 'repo' : declared === 'knowledge' || triggers.length ? 'knowledge' : 'repo';
  return {
    name: typeof meta.name === 'string' && meta.name.trim() ? meta.name.trim() : fileName.replace(/\.md$/i, ''),
    type,
    triggers: type === 'knowledge' ? triggers : [],
    content: (match ? (match[2] ?? '') : text).trim(),
  };
}

/** The microagents of a workspace, by file name; none when the directory does not exist. */
export async function loadMicroagents(session: RuntimeSession): Promise<Microagent[]> {
  let names: string[];
  try {
    names = await session.listFiles(MICROAGENT_DIR);
  } catch {
    return [];
  }
  const files = names.filter((n) => !n.endsWith('/') && n.toLowerCase().endsWith('.md'));
  return Promise.all(
    files.map(async (name) => parseMicroagent(name, await session.readFile(`${MICROAGENT_DIR}/${name}`))),
  );
}
