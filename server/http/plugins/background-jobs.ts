import fp from 'fastify-plugin';
import type { Modules } from '../../modules/index.ts';

const CHARGE_EVERY_MS = 60_000;
const SWEEP_EVERY_MS = 3600_000;

/** The timers every node runs, stopped before the server closes. */
export const backgroundJobs = fp<{ modules: Modules }>(
  async (app, { modules }) => {
    // Deployments are charged hour by hour; every node may run this, the ledger's keys charge once.
    await modules.deployments.restore(app.log);
    const charging = setInterval(
      () =>
        void modules.deployments
          .chargeDue()
          .catch((error: unknown) => app.log.error({ err: error }, 'charging deployments failed')),
      CHARGE_EVERY_MS,
    ).unref();
    // Onboarding chats' retention, hourly on every node (the deletes are idempotent).
    const sweepChats = () =>
      void modules.chatOnboarding
        .sweep()
        .catch((error: unknown) => app.log.error({ err: error }, 'deleting ended onboarding chats failed'));
    sweepChats();
    const sweeping = setInterval(sweepChats, SWEEP_EVERY_MS).unref();
    app.addHook('preClose', async () => {
      clearInterval(charging);
      clearInterval(sweeping);
    });
  },
  { name: 'background-jobs' },
);
