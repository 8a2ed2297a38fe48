import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempRuntime, type TempRuntime } from '../../tests/support/temp-runtime.ts';
import type { RuntimeSession } from './types.ts';

let temp: TempRuntime;
let session: RuntimeSession;

beforeAll(async () => {
  temp = await tempRuntime();
  session = await temp.runtime.start('shell-test', { env: { GREETING: 'hello from env' } });
});

afterAll(async () => {
  await temp.cleanup();
});

describe('runCommand', { timeout: 20_000 }, () => {
  it('gives the output and the exit code of each command', async () => {
    await expect(session.runCommand({ command: 'echo hello' })).resolves.toMatchObject({
      output: 'hello',
      exitCode: 0,
      running: false,
    });
    await expect(session.runCommand({ command: 'false' })).resolves.toMatchObject({ output: '', exitCode: 1 });
    await expect(
      session.runCommand({ command: 'echo oops >&2; exit_code() { return 7; }; exit_code' }),
    ).resolves.toMatchObject({ output: 'oops', exitCode: 7 });
    await expect(session.runCommand({ command: 'printf "no newline"' })).resolves.toMatchObject({
      output: 'no newline',
      exitCode: 0,
    });
  });

  it('removes colours and runs multi-line commands as one', async () => {
    const result = await session.runCommand({
      command: 'printf "\\033[31mred\\033[0m\\n"\nfor i in 1 2; do\n  echo "line $i"\ndone\ncat <<EOF\nheredoc\nEOF',
    });
    expect(result).toMatchObject({ output: 'red\nline 1\nline 2\nheredoc', exitCode: 0 });
  });

  it('keeps the working directory and variables between commands', async () => {
    const moved = await session.runCommand({ command: 'mkdir -p sub && cd sub && pwd' });
    expect(moved.output).toBe(`${session.workspaceDir}/sub`);
    expect(moved.cwd).toBe(`${session.workspaceDir}/sub`);
    await expect(session.runCommand({ command: 'pwd' })).resolves.toMatchObject({
      output: `${session.workspaceDir}/sub`,
    });
    await session.runCommand({ command: 'export COLOUR=blue; cd ..' });
    await expect(session.runCommand({ command: 'echo "$COLOUR $GREETING"' })).resolves.toMatchObject({
      output: 'blue hello from env',
      cwd: session.workspaceDir,
    });
  });

  it('gives the ports and a home outside the workspace', async () => {
    const result = await session.runCommand({ command: 'echo "$APP_PORT_1 $APP_PORT_2 $HOME"' });
    const [first, second, home] = result.output.split(' ');
    expect([Number(first), Number(second)]).toEqual([...session.ports]);
    expect(home?.startsWith(session.workspaceDir)).toBe(false);
  });

  it('answers running=true on timeout, then an empty command polls for the rest', async () => {
    const first = await session.runCommand({ command: 'echo start; sleep 1.5; echo end', timeoutSeconds: 0.5 });
    expect(first).toMatchObject({ output: 'start\n', exitCode: -1, running: true });
    const second = await session.runCommand({ command: '' });
    expect(second).toMatchObject({ output: 'end', exitCode: 0, running: false });
  });

  it('refuses a new command while one runs, and interrupt stops it', async () => {
    const started = Date.now();
    await expect(session.runCommand({ command: 'sleep 100', timeoutSeconds: 0.3 })).resolves.toMatchObject({
      running: true,
    });
    await expect(session.runCommand({ command: 'echo next' })).rejects.toThrow(/still running/);
    await session.interrupt();
    await expect(session.runCommand({ command: '', timeoutSeconds: 5 })).resolves.toMatchObject({
      running: false,
      exitCode: 130,
    });
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(session.runCommand({ command: 'echo after' })).resolves.toMatchObject({
      output: 'after',
      exitCode: 0,
    });
  });

  it('sends input to a running program', async () => {
    const prompt = await session.runCommand({ command: 'read -p "Name? " NAME; echo "hi $NAME"', timeoutSeconds: 0.5 });
    expect(prompt).toMatchObject({ output: 'Name? ', running: true });
    await expect(session.runCommand({ command: 'Ada', isInput: true })).resolves.toMatchObject({
      output: 'hi Ada',
      exitCode: 0,
      running: false,
    });
    await expect(session.runCommand({ command: 'x', isInput: true })).rejects.toThrow(/No command is running/);
  });

  it('streams the command and its raw output to listeners', async () => {
    const chunks: string[] = [];
    const unsubscribe = session.onOutput((chunk) => chunks.push(chunk));
    await session.runCommand({ command: 'echo streamed | tr a-z A-Z' });
    unsubscribe();
    const stream = chunks.join('');
    expect(stream).toContain('echo streamed | tr a-z A-Z');
    expect(stream).toContain('STREAMED');
    expect(stream.indexOf('echo streamed')).toBeLessThan(stream.indexOf('STREAMED'));
  });

  it('queues concurrent calls', async () => {
    const results = await Promise.all([1, 2, 3].map((n) => session.runCommand({ command: `echo ${n}` })));
    expect(results.map((result) => result.output)).toEqual(['1', '2', '3']);
  });

  it('gives a command that finished after the timeout its end and exit code on the next poll', async () => {
    await expect(
      session.runCommand({ command: 'sleep 0.3; echo late; (exit 4)', timeoutSeconds: 0.1 }),
    ).resolves.toMatchObject({ running: true });
    await new Promise((resolve) => setTimeout(resolve, 600));
    await expect(session.runCommand({ command: '' })).resolves.toMatchObject({
      output: 'late',
      exitCode: 4,
      running: false,
    });
  });

  it('cuts long output to 30,000 characters keeping head and tail, in bounded memory', async () => {
    const result = await session.runCommand({
      command: 'echo BEGIN; head -c 3000000 /dev/zero | tr "\\0" x; echo; echo END',
    });
    expect(result.output.length).toBeLessThan(30_200);
    expect(result.output.startsWith('BEGIN\nxxx')).toBe(true);
    expect(result.output.endsWith('xxx\nEND')).toBe(true);
    const cut = Number(/(\d+) characters cut/.exec(result.output)?.[1]);
    // Everything but the 30,000 kept characters, give or take the terminal's line breaks.
    expect(Math.abs(cut - (3_000_000 + 'BEGIN\n\nEND'.length - 30_000))).toBeLessThan(100);
  });

  it('takes an environment update from the next command on, in the running bash and in a new one', async () => {
    const chunks: string[] = [];
    const unsubscribe = session.onOutput((chunk) => chunks.push(chunk));
    await expect(session.runCommand({ command: 'echo "token=$GIT_TOKEN_TEST"' })).resolves.toMatchObject({
      output: 'token=',
    });
    session.updateEnvironment({ GIT_TOKEN_TEST: "first 'quoted' $value" });
    // The command's own line numbers, and nothing of the update in the output or the stream.
    const updated = await session.runCommand({ command: 'echo "token=$GIT_TOKEN_TEST"\necho "line $LINENO"' });
    unsubscribe();
    expect(updated).toMatchObject({ output: "token=first 'quoted' $value\nline 2", exitCode: 0 });
    expect(chunks.join('')).not.toContain('export');
    // What the bash started, too, and a new bash after an exit.
    await expect(session.runCommand({ command: 'sh -c \'echo "child=$GIT_TOKEN_TEST"\'' })).resolves.toMatchObject({
      output: "child=first 'quoted' $value",
    });
    session.updateEnvironment({ GIT_TOKEN_TEST: 'second' });
    await session.runCommand({ command: 'exit 0' });
    await expect(session.runCommand({ command: 'echo "token=$GIT_TOKEN_TEST"' })).resolves.toMatchObject({
      output: 'token=second',
    });
    // Removed: gone from the running bash.
    session.updateEnvironment({ GIT_TOKEN_TEST: null });
    await expect(session.runCommand({ command: 'echo "token=${GIT_TOKEN_TEST-unset}"' })).resolves.toMatchObject({
      output: 'token=unset',
    });
    expect(() => session.updateEnvironment({ 'A=B; rm': 'x' })).toThrow(/Not an environment variable/);
  });

  it('starts a new shell after exit', async () => {
    await expect(session.runCommand({ command: 'exit 3' })).resolves.toMatchObject({ exitCode: 3, running: false });
    await expect(session.runCommand({ command: 'echo back; pwd' })).resolves.toMatchObject({
      output: `back\n${session.workspaceDir}`,
      exitCode: 0,
    });
  });
});
