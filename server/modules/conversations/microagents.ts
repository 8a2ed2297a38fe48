import { parseMicroagent, type Microagent } from '../../agent/recall/microagents.ts';
import type { RuntimeSession } from '../../runtime/types.ts';

/** Where a workspace keeps its microagents (the OpenHands layout the spec's examples use). */
const MICROAGENT_DIR = '.openhands/microagents';

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
