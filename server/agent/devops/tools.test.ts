import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WorkspaceFiles } from '../../runtime/files.ts';
import { appDirectory } from './archive.ts';
import { perHour, proposedPlans } from './tools.ts';

const workspace = mkdtempSync(path.join(os.tmpdir(), 'atelier-devops-'));
mkdirSync(path.join(workspace, 'app'));
writeFileSync(path.join(workspace, 'README.md'), 'not a directory');
symlinkSync('/etc', path.join(workspace, 'etc-link'));
const files = new WorkspaceFiles(realpathSync(workspace));
const runtime = { listFiles: (dir?: string) => files.list(dir) };
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const plan = (name: string, size: string) => ({
  role: 'assistant' as const,
  content: [
    {
      type: 'tool-call' as const,
      toolCallId: `call-${name}-${size}`,
      toolName: 'propose_deployment',
      input: { name, environment: 'staging', directory: 'app', start: 'node server.js', port: 8080, size },
    },
  ],
});

describe('the DevOps tools', () => {
  it('deploy only what an earlier turn proposed, the latest proposal of each name', () => {
    const plans = proposedPlans([
      { role: 'user', content: 'Deploy it' },
      plan('web', 's-1vcpu-1gb'),
      plan('web', 's-2vcpu-2gb'),
      // A proposal whose arguments were wrong was never shown as a plan.
      { ...plan('api', 's-1vcpu-1gb'), content: [{ ...plan('api', 'x').content[0]!, input: { name: 'api' } }] },
    ]);
    expect([...plans.keys()]).toEqual(['web']);
    expect(plans.get('web')).toMatchObject({ size: 's-2vcpu-2gb', region: null, environment: 'staging' });
  });

  it('pack only a directory inside the workspace', async () => {
    await expect(appDirectory(runtime, 'app')).resolves.toBeUndefined();
    await expect(appDirectory(runtime, '.')).resolves.toBeUndefined();
    await expect(appDirectory(runtime, '../')).rejects.toThrow('is outside the workspace');
    await expect(appDirectory(runtime, '/etc')).rejects.toThrow('is outside the workspace');
    await expect(appDirectory(runtime, 'etc-link')).rejects.toThrow('is outside the workspace');
    await expect(appDirectory(runtime, 'README.md')).rejects.toThrow('The workspace has no directory README.md.');
  });

  it('say hourly prices in cents, or in the fraction a cheap size needs', () => {
    expect(perHour(0n)).toBe('$0.00/hour');
    expect(perHour(8_930n)).toBe('$0.00893/hour');
    expect(perHour(71_430n)).toBe('$0.07/hour');
  });
});
