import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * The unit tests that can kill a mutant in machines/: the machine suites and the jsdom
 * screens that run the machines. One project only: Stryker's vitest runner measures
 * per-test coverage and needs a single jsdom project.
 * MUTATION_TESTS=before points at a copy of the machine tests of another commit
 * (mutation-before/, not committed) to measure the score before a change.
 */
const machineTests = process.env.MUTATION_TESTS === 'before' ? 'mutation-before/tests/machines' : 'tests/machines';
const screenTests = process.env.MUTATION_SCREENS === '1' ? ['tests/src/features/**/*.test.{ts,tsx}'] : [];

/**
 * Server suites that need no database and run machines/items itself: the QTI import and export,
 * the specification's own scoring examples, the item HTML and the scorer in other realms. They
 * are part of `npm test` and kill mutants of the item rules (the scorer, the compiled
 * processing, the schema) that no machine suite reaches, so a run leaving them out reported
 * mutants as surviving that the test suite kills.
 */
const databaseFreeServerTests = ['item-html', 'qti-hostile', 'qti-import', 'qti-round-trip', 'qti-spec-examples', 'scorer-realms'].map(
  (name) => `tests/server/items/${name}.test.ts`,
);

/** MUTATION_TEST_FILES=a.test.ts,b.test.ts: only these (a narrowed run, with MUTATION_FILES). */
const onlyFiles = process.env.MUTATION_TEST_FILES?.split(',');

export default defineConfig({
  plugins: [react()],
  test: {
    root: new URL('../..', import.meta.url).pathname,
    environment: 'jsdom',
    include: onlyFiles ?? [
      `${machineTests}/**/*.test.{ts,tsx}`,
      // A before-measurement has only the copied machine tests.
      ...(process.env.MUTATION_TESTS === 'before' ? [] : ['tests/src/features/auth/code-step-cooldown.test.tsx', ...databaseFreeServerTests]),
      ...screenTests,
    ],
    exclude: ['**/node_modules/**'],
    setupFiles: ['tests/setup/jsdom-setup.ts'],
    // Instrumented code on a loaded machine: the long model walks need more than the default.
    testTimeout: 600_000,
  },
});
