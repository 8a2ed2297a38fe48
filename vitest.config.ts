import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

// One project per kind of test, so `npm test` can run and report them in order.
export default defineConfig({
  test: {
    projects: [
      {
        // A statechart's model-based tests (`*.model.test.ts`) beside a server machine run with the model project.
        test: {
          name: 'unit',
          environment: 'node',
          include: ['server/**/*.test.ts'],
          exclude: [...configDefaults.exclude, '**/*.model.test.ts'],
          // Runtime tests start sandboxes: the first probes the host's protections (~3 s alone, more on a loaded CI).
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react(), vanillaExtractPlugin()],
        test: { name: 'web', environment: 'happy-dom', include: ['src/**/*.test.{ts,tsx}', 'locales/**/*.test.ts'] },
      },
      {
        test: {
          name: 'model',
          environment: 'node',
          include: ['tests/model/**/*.test.ts', 'server/**/*.model.test.ts'],
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts', 'tests/contract/**/*.test.ts', 'tests/security/**/*.test.ts'],
          // *.postgres.test.ts need a PostgreSQL server (several nodes on one database): the PostgreSQL pass runs them.
          exclude: process.env.DATABASE_URL
            ? configDefaults.exclude
            : [...configDefaults.exclude, 'tests/**/*.postgres.test.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/e2e-setup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
