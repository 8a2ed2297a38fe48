import os from 'node:os';
import { InvalidInput } from '../../shared/domain-errors.ts';
import type { AppHosting } from '../../runtime/types.ts';
import type { DeployProvider } from './types.ts';

/**
 * Deploys on this machine, for installations without a cloud token (so the DevOps agent works on a
 * fresh machine): the app runs sandboxed on a free port of the host, free of charge. `url` says
 * localhost; the browser puts the page's own host in its place, as for served apps.
 */
export function localProvider(apps: AppHosting, freePort: () => Promise<number>): DeployProvider {
  return {
    name: 'local',

    async sizes() {
      return [
        {
          slug: 'local',
          hourlyCostMicros: 0n,
          vcpus: os.cpus().length,
          memoryMb: Math.floor(os.totalmem() / 2 ** 20),
          regions: ['local'],
        },
      ];
    },

    async create(request) {
      if (request.size !== 'local') throw new InvalidInput(`This server deploys on itself: its only size is "local".`);
      const key = `${request.conversationId}-${request.name}`;
      const port = await freePort();
      try {
        await apps.host({ key, archive: request.app.archive, start: request.app.start, port });
      } catch (error) {
        await apps.remove(key);
        throw new InvalidInput(error instanceof Error ? error.message : String(error));
      }
      return {
        externalId: key,
        ip: null,
        url: `http://localhost:${port}`,
        region: 'local',
        sizeSlug: 'local',
        hourlyCostMicros: 0n,
      };
    },

    destroy: (externalId) => apps.remove(externalId),

    async restore(externalId) {
      await apps.restart(externalId);
    },
  };
}
