// Run as an unprivileged user by sandbox-not-root.test.ts: a runtime as a server that is not root
// makes it, one conversation's answers to the attacks that matter there, as JSON on stdout.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tempRuntime } from '../../support/temp-runtime.ts';

const temp = await tempRuntime();
try {
  const secret = path.join(temp.dataDir, 'secret.key');
  await writeFile(secret, 'server secret');
  const other = await temp.runtime.start('other');
  await other.writeFile('private.txt', 'theirs');
  const session = await temp.runtime.start('probe');
  const run = async (command: string) => (await session.runCommand({ command })).output;
  const answers = {
    sandboxed: session.sandboxed,
    status: await run(`id -u; grep -E '^(CapEff|CapPrm|CapBnd|NoNewPrivs|Seccomp):' /proc/self/status`),
    serverUid: process.getuid?.(),
    unshare: await run('unshare --user --map-root-user true && echo ESCAPED'),
    secret: await run(`cat ${secret} && echo ESCAPED`),
    other: await run(`cat ${path.join(temp.rootDir, 'other', 'private.txt')} && echo ESCAPED`),
    write: await run('echo mine > mine.txt && cat mine.txt'),
    serverWrite: (await session.writeFile('from-server.txt', 'x'), await run('cat from-server.txt')),
  };
  process.stdout.write(`${JSON.stringify(answers)}\n`);
} finally {
  await temp.cleanup();
}
