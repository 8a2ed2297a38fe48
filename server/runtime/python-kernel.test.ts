import { readlinkSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { findOnPath } from './executables.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processesWith, tempRuntime, type TempRuntime } from '../../tests/support/temp-runtime.ts';
import type { RuntimeSession } from './types.ts';

/** bubblewrap's path where it can sandbox here. */
const bwrap = findOnPath('bwrap');

// A 1×1 PNG, shown through IPython.display so the test needs no matplotlib.
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

let temp: TempRuntime;
let session: RuntimeSession;
let unavailable: string | null;

beforeAll(async () => {
  temp = await tempRuntime();
  session = await temp.runtime.start('python-test');
  unavailable = await session.pythonUnavailable();
});

afterAll(async () => {
  await temp.cleanup();
});

describe('Python kernel', { timeout: 30_000 }, () => {
  it('explains why Python is unavailable when the interpreter lacks ipykernel', async () => {
    const broken = await tempRuntime({ python: '/nonexistent/python3' });
    try {
      const other = await broken.runtime.start('no-python');
      await expect(other.pythonUnavailable()).resolves.toMatch(/cannot import ipykernel/);
      await expect(other.runPython('1')).rejects.toThrow(/cannot import ipykernel/);
    } finally {
      await broken.cleanup();
    }
  });

  it('takes an environment update from the next cell on, silently and out of the history', async (context) => {
    if (unavailable) context.skip(unavailable);
    await session.runPython('import os\ncells = len(In)');
    session.updateEnvironment({ KERNEL_TOKEN_TEST: 'rotated "token" \\ é' });
    await expect(session.runPython('print(os.environ["KERNEL_TOKEN_TEST"])')).resolves.toEqual({
      output: 'rotated "token" \\ é',
      images: [],
    });
    session.updateEnvironment({ KERNEL_TOKEN_TEST: null, KERNEL_OTHER_TEST: 'set' });
    await expect(
      session.runPython('print(os.environ.get("KERNEL_TOKEN_TEST", "removed"), os.environ["KERNEL_OTHER_TEST"])'),
    ).resolves.toMatchObject({ output: 'removed set' });
    // The updates were no cells of the user's: the history holds only the three cells since.
    await expect(session.runPython('print(len(In) - cells)')).resolves.toMatchObject({ output: '3' });
  });

  it('prints, returns values, keeps state and reports errors', async (context) => {
    if (unavailable) context.skip(unavailable);
    await expect(session.runPython('import os\nprint("hello")\nanswer = 6 * 7\nanswer')).resolves.toEqual({
      output: 'hello\n42',
      images: [],
    });
    await expect(session.runPython('print(answer, os.getcwd())')).resolves.toMatchObject({
      output: `42 ${session.workspaceDir}`,
    });
    const failed = await session.runPython('1 / 0');
    expect(failed.output).toContain('ZeroDivisionError');
    expect(failed.output).not.toContain('\x1b[');
  });

  it('returns displayed images as data URLs', async (context) => {
    if (unavailable) context.skip(unavailable);
    const result = await session.runPython(
      `import base64\nfrom IPython.display import Image, display\ndisplay(Image(data=base64.b64decode("${PIXEL}")))`,
    );
    expect(result.images).toEqual([`data:image/png;base64,${PIXEL}`]);
  });

  it('interrupts a cell that outlives its timeout and keeps the kernel', async (context) => {
    if (unavailable) context.skip(unavailable);
    const result = await session.runPython('import time\nprint("before", flush=True)\ntime.sleep(60)', 1);
    expect(result.output).toMatch(/before[\s\S]*KeyboardInterrupt[\s\S]*interrupted/);
    await expect(session.runPython('answer')).resolves.toMatchObject({ output: '42' });
  });

  it('shares /tmp with the shell of the same conversation', async (context) => {
    if (unavailable) context.skip(unavailable);
    await session.runCommand({ command: 'echo "from the shell" > /tmp/shared.txt' });
    await expect(session.runPython('print(open("/tmp/shared.txt").read().strip())')).resolves.toMatchObject({
      output: 'from the shell',
    });
  });

  it.skipIf(!bwrap && !process.env.CI)('runs inside the sandbox', async (context) => {
    if (unavailable) context.skip(unavailable);
    const secret = path.join(temp.dataDir, 'secret.txt');
    await writeFile(secret, 'server secrets');
    const result = await session.runPython(`open(${JSON.stringify(secret)}).read()`);
    expect(result.output).toContain('FileNotFoundError');
  });

  it('stop kills the kernel', async (context) => {
    if (unavailable) context.skip(unavailable);
    // This session's kernel: the one working in its workspace (other files' kernels run meanwhile).
    const kernels = () =>
      processesWith('ipykernel_launcher').filter((pid) => {
        try {
          return readlinkSync(`/proc/${pid}/cwd`) === session.workspaceDir;
        } catch {
          return false;
        }
      });
    expect(kernels().length).toBeGreaterThan(0);
    await session.stop();
    expect(kernels()).toEqual([]);
  });
});
