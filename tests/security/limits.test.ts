import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTestApp } from '../support/app.ts';
import { createRunning, listen, runInTerminal, signUp, SocketClient, waitFor } from '../support/conversations.ts';
import { sandboxAvailable } from '../support/sandbox.ts';
import type { Event } from '../../openapi/types.ts';

// A fork bomb, a memory hog and a disk filler in one conversation, each bounded by the test, are
// stopped by the conversation's limits, while another conversation's command and the server's
// /health answer within a second. The agent's observation and the user's status say what happened.

const LIMITS = { SANDBOX_MEMORY_MB: '256', SANDBOX_PROCESSES: '64', SANDBOX_DISK_MB: '64' };
const t = withTestApp({ APP_MODE: 'saas', ...LIMITS });

let baseUrl: string;
let hog: SocketClient;
let other: SocketClient;

async function openConversation(email: string): Promise<SocketClient> {
  const user = await signUp(t.app, t.db, email);
  const conversation = await createRunning(t.app, user.token);
  return SocketClient.open(
    baseUrl,
    { conversation_id: conversation.conversation_id, latest_event_id: -1 },
    { authorization: `Bearer ${user.token}` },
  );
}

beforeAll(async () => {
  if (!sandboxAvailable) return;
  baseUrl = await listen(t.app);
  hog = await openConversation('hog@acme.example');
  other = await openConversation('neighbour@acme.example');
}, 120_000);

afterAll(async () => {
  await hog?.close();
  await other?.close();
});

/** How long, in ms, the other conversation's command and the server's /health take, the slower of the two. */
async function othersWait(): Promise<number> {
  const started = performance.now();
  const [echo] = await Promise.all([
    runInTerminal(other, 'echo still here'),
    fetch(`${baseUrl}/health`).then((response) => expect(response.status).toBe(200)),
  ]);
  expect(echo.content).toBe('still here');
  return performance.now() - started;
}

/** Runs an attack in the hog's shell; measures the others while it runs. Answers its observation and the others' slowest wait. */
async function whileRunning(command: string): Promise<{ observation: Event; slowest: number }> {
  const attack = runInTerminal(hog, command);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const waits = [await othersWait(), await othersWait()];
  const observation = await attack;
  return { observation, slowest: Math.max(...waits) };
}

const statusOf = (statusId: string) => () => hog.events.filter((event) => event.status_id === statusId);

// Skipped only on a developer machine without bubblewrap or pasta; CI always has them.
describe.skipIf(!sandboxAvailable)('a conversation’s limits', { timeout: 120_000 }, () => {
  it('stops a fork bomb at the process limit', async () => {
    const { observation, slowest } = await whileRunning(
      `python3 -c "
import os, time
refused = 0
for _ in range(400):
    try:
        if os.fork() == 0:
            time.sleep(4); os._exit(0)
    except OSError:
        refused += 1
print('refused', refused)"`,
    );
    expect(Number(/refused (\d+)/.exec(String(observation.content))?.[1])).toBeGreaterThan(300);
    expect(observation.content).toContain(
      '[Process limit reached: a new process could not start; this workspace may run 64 processes and threads at once.]',
    );
    expect(slowest).toBeLessThan(1000);
    await waitFor(statusOf('STATUS$ERROR_PROCESS_LIMIT'), (found) => found.length > 0, 5000, 'the status message');
  });

  it('stops a memory hog at the memory limit', async () => {
    // Four processes of 120 MB each: within the per-process floor, over the workspace's 256 MB together.
    const { observation, slowest } = await whileRunning(
      `for i in 1 2 3 4; do python3 -c "import time; b = b'x' * (120 * 2**20); time.sleep(3)" & done; wait; echo done`,
    );
    expect(observation.content).toContain('[Out of memory: the command was stopped; this workspace may use 256 MB.]');
    expect(slowest).toBeLessThan(1000);
    await waitFor(statusOf('STATUS$ERROR_OUT_OF_MEMORY'), (found) => found.length > 0, 5000, 'the status message');
  });

  it('stops a disk filler at the disk limit, and lets files grow again once some are deleted', async () => {
    const big = await runInTerminal(hog, 'head -c 100M /dev/zero > big.bin; echo "exit $?"; ls -l big.bin');
    expect(big.content).toMatch(/File too large/);
    expect(big.content).toMatch(/ 67108864 /);
    await runInTerminal(hog, 'rm big.bin');
    const { observation, slowest } = await whileRunning(
      'for i in $(seq 1 300); do head -c 1M /dev/zero > fill-$i.bin 2>/dev/null || break; sleep 0.02; done; echo "wrote $i"',
    );
    expect(Number(/wrote (\d+)/.exec(String(observation.content))?.[1])).toBeLessThan(300);
    expect(observation.content).toMatch(
      /\[Out of disk space: this workspace may use 64 MB and holds \d+ MB; files cannot grow until some are deleted\.\]/,
    );
    expect(slowest).toBeLessThan(1000);
    await waitFor(statusOf('STATUS$ERROR_OUT_OF_DISK'), (found) => found.length > 0, 5000, 'the status message');
    expect((await runInTerminal(hog, 'echo more > more.txt; echo "exit $?"')).content).toMatch(
      /File too large[\s\S]*exit 1/,
    );
    await runInTerminal(hog, 'rm -f fill-*.bin');
    expect((await runInTerminal(hog, 'echo more > more.txt; cat more.txt')).content).toBe('more');
  });
});
