import { parseYaml } from '../../shared/yaml.ts';
import type { RuntimeSession } from '../../runtime/types.ts';

/**
 * Microagents are Markdown files in `.openhands/microagents/` of the repository (or of the
 * workspace when there is none). `repo.md`, and any file without triggers, holds instructions
 * that always apply; a file whose YAML front matter lists `triggers:` is knowledge, added to
 * the context when a user message contains one of its triggers (case-insensitive).
 */
export interface KnowledgeMicroagent {
  name: string;
  triggers: string[];
  content: string;
}

export interface Microagents {
  /** The always-on instructions, repo.md first. */
  repoInstructions: string;
  knowledge: KnowledgeMicroagent[];
}

export interface Microagent extends KnowledgeMicroagent {
  type: 'repo' | 'knowledge';
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

/**
 * Reads one microagent file: optional YAML front matter (`name`, `type`/`agent`, `triggers`)
 * then the content. A declared type decides; else with triggers it is knowledge, loaded when a
 * trigger word appears, and without, a repo microagent, always loaded. The agent and the API's
 * listing both read microagents with it, so they agree on each one's kind.
 */
export function parseMicroagent(fileName: string, text: string): Microagent {
  const match = FRONT_MATTER.exec(text);
  let meta: Record<string, unknown> = {};
  if (match) {
    try {
      const parsed = parseYaml(match[1] ?? '');
      if (parsed && typeof parsed === 'object') meta = parsed as Record<string, unknown>;
    } catch {
      // A broken header still leaves usable instructions.
    }
  }
  const triggers = Array.isArray(meta.triggers)
    ? meta.triggers.filter((t): t is string => typeof t === 'string' && t.trim() !== '')
    : [];
  const declared = meta.type ?? meta.agent;
  const type = declared === 'repo' ? 'repo' : declared === 'knowledge' || triggers.length ? 'knowledge' : 'repo';
  return {
    name: typeof meta.name === 'string' && meta.name.trim() ? meta.name.trim() : fileName.replace(/\.md$/i, ''),
    type,
    triggers: type === 'knowledge' ? triggers : [],
    content: (match ? text.slice(match[0].length) : text).trim(),
  };
}

/** Where a repository (or the workspace) keeps its microagents. */
export const MICROAGENT_DIR = '.openhands/microagents';

/** The microagent files below `baseDir`, parsed, in the listing's order; none when the directory does not exist. */
export async function readMicroagents(
  runtime: Pick<RuntimeSession, 'listFiles' | 'readFile'>,
  baseDir: string,
): Promise<{ file: string; microagent: Microagent }[]> {
  const dir = `${baseDir.replace(/\/$/, '')}/${MICROAGENT_DIR}`;
  let names: string[];
  try {
    names = await runtime.listFiles(dir);
  } catch {
    return [];
  }
  const files = names.filter((name) => !name.endsWith('/') && name.toLowerCase().endsWith('.md'));
  return Promise.all(
    files.map(async (file) => ({ file, microagent: parseMicroagent(file, await runtime.readFile(`${dir}/${file}`)) })),
  );
}

/** The workspace's microagents as the agent uses them: the always-on instructions (repo.md first) and the knowledge. */
export async function loadMicroagents(runtime: RuntimeSession, baseDir: string): Promise<Microagents> {
  const found = (await readMicroagents(runtime, baseDir)).sort(
    (a, b) => Number(b.file === 'repo.md') - Number(a.file === 'repo.md'),
  );
  const instructions: string[] = [];
  const knowledge: KnowledgeMicroagent[] = [];
  for (const { file, microagent } of found) {
    const { type, ...agent } = microagent;
    if (type === 'repo' || file === 'repo.md') instructions.push(agent.content);
    else knowledge.push(agent);
  }
  return { repoInstructions: instructions.filter(Boolean).join('\n\n'), knowledge };
}

/** The knowledge entries a message triggers, once per microagent (its first matching trigger). */
export function triggeredKnowledge(
  knowledge: readonly KnowledgeMicroagent[],
  message: string,
): { name: string; trigger: string; content: string }[] {
  const text = message.toLowerCase();
  return knowledge.flatMap((agent) => {
    const trigger = agent.triggers.find((candidate) => text.includes(candidate.toLowerCase()));
    return trigger === undefined ? [] : [{ name: agent.name, trigger, content: agent.content }];
  });
}
