import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * The unit tests that can kill a mutant in machines/: the machine suites and the jsdom
 * screens that run the machines. One project only: Stryker's vitest runner measures
 * per-test coverage and needs a single jsdom project.
 */
export default defineConfig({
  plugins: [react()],
  test: {
    root: new URL('../..', import.meta.url).pathname,
    environment: 'jsdom',
    include: ['tests/machines/**/*.test.{ts,tsx}', 'tests/src/app/**/*.test.{ts,tsx}', 'tests/src/features/**/*.test.{ts,tsx}'],
    setupFiles: ['tests/setup/jsdom-setup.ts'],
  },
});
