import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './tests/setup/sequencer.ts';

/**
 * Vitest's default is one worker fewer than the cores: one worker on the 2-core CI machine,
 * with the second core idle while a worker waits on PostgreSQL, a browser or a server
 * (decision 0288). Two at least; the e2e files two at a time (each starts a server and a browser).
 */
const workers = Math.max(2, availableParallelism() - 1);

/**
 * One runner, four roots (ARCHITECTURE.md §4):
 * - unit: machines/ and src/ in jsdom
 * - server: every suite on PGlite, and again on PostgreSQL whenever one answers
 *   (TEST_DATABASE_URL, else 127.0.0.1:5432; a loud notice when skipped, tests/setup/server-global-setup.ts)
 * - e2e: Debian's Chromium through playwright-core against a server each file starts
 */
export default defineConfig({
  test: {
    reporters: ['default'],
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        plugins: [react()],
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['tests/machines/**/*.test.{ts,tsx}', 'tests/src/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/setup/jsdom-setup.ts'],
          maxWorkers: workers,
          // Whole screens render in jsdom with Ark's state machines; on a shared 2-core machine a
          // user-event walk through a form takes 5–8 s. Time is not what these tests check.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          globalSetup: ['tests/setup/server-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          pool: 'forks',
          maxWorkers: workers,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          pool: 'forks',
          // Each file starts a server and a browser: two files at a time keep both cores busy
          // (one alone leaves a core idle while it waits on the other process).
          maxWorkers: 2,
          // One retry for a real browser on a loaded 2-core runner (decision 0170): a test must
          // fail twice in a row to fail the run, and the report marks every retried test.
          retry: 1,
        },
      },
    ],
  },
});
