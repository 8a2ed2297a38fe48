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

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

export function parseMicroagent(fileName: string, text: string): { name: string; triggers: string[]; content: string } {
  const match = FRONT_MATTER.exec(text);
  const fallbackName = fileName.replace(/\.md$/, '');
  if (!match) return { name: fallbackName, triggers: [], content: text.trim() };
  let meta: { name?: unknown; triggers?: unknown } = {};
  try {
    meta = (parseYaml(match[1] ?? '') as typeof meta | null) ?? {};
  } catch {
    // A broken header still leaves usable instructions.
  }
  const triggers = Array.isArray(meta.triggers)
    ? meta.triggers.filter((t): t is string => typeof t === 'string' && t.trim() !== '')
    : [];
  return {
    name: typeof meta.name === 'string' && meta.name ? meta.name : fallbackName,
    triggers,
    content: text.slice(match[0].length).trim(),
  };
}

export async function loadMicroagents(runtime: RuntimeSession, baseDir: string): Promise<Microagents> {
  const dir = `${baseDir.replace(/\/$/, '')}/.openhands/microagents`;
  let names: string[];
  try {
    names = (await runtime.listFiles(dir))
      .filter((name) => name.endsWith('.md'))
      .sort((a, b) => Number(b === 'repo.md') - Number(a === 'repo.md'));
  } catch {
    return { repoInstructions: '', knowledge: [] };
  }
  const instructions: string[] = [];
  const knowledge: KnowledgeMicroagent[] = [];
  for (const name of names) {
    const agent = parseMicroagent(name, await runtime.readFile(`${dir}/${name}`));
    if (agent.triggers.length === 0 || name === 'repo.md') instructions.push(agent.content);
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
