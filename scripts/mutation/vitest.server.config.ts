import { defineConfig } from 'vitest/config';

/** MUTATION_TEST_FILES=a.test.ts,b.test.ts: only these (a narrowed run, with MUTATION_FILES). */
const onlyFiles = process.env.MUTATION_TEST_FILES?.split(',');

/** The server suites that can kill a mutant in the enforcing server modules. */
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    environment: 'node',
    include: onlyFiles ?? [
      'tests/server/tickets/**/*.test.ts',
      'tests/server/identity/**/*.test.ts',
      'tests/server/users/**/*.test.ts',
      'tests/server/realtime/**/*.test.ts',
      // The ticket service's change events (previous status, assignee, group) are read by the
      // notifications, which is where a wrong event shows.
      'tests/server/notifications/**/*.test.ts',
    ],
    globalSetup: ['tests/setup/server-global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
