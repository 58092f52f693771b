// @ts-check
/**
 * Mutation testing (issue 14, docs/decisions/0110-mutation-testing-with-stryker.md).
 * MUTATION_SCOPE=machines (default) mutates machines/ against the unit suites;
 * MUTATION_SCOPE=server mutates the server modules that enforce the machines.
 * Reports: reports/mutation/<scope>/mutation.html and mutation.json.
 */
const scope = process.env.MUTATION_SCOPE ?? 'machines';
/**
 * A before-measurement (MUTATION_TESTS=before) and a narrowed run (MUTATION_FILES) write beside
 * the whole-scope report, which /machines reads, instead of over it; MUTATION_RUN_NAME names a
 * narrowed run's report and sandbox, so that two can run at once.
 */
const suffix = process.env.MUTATION_TESTS === 'before' ? '-before' : process.env.MUTATION_FILES ? `-${process.env.MUTATION_RUN_NAME ?? 'partial'}` : '';

const scopes = {
  machines: {
    // Every actor and the pure rules beside them (exams, items, papers, results); the model
    // files and the graph helpers only drive the tests.
    mutate: ['machines/**/*.ts', '!machines/test-model.ts', '!machines/graph-coverage.ts', '!machines/**/*.model.ts'],
    configFile: 'scripts/mutation/vitest.machines.config.ts',
  },
  server: {
    mutate: [
      'server/modules/tickets/tickets-service.ts',
      'server/modules/tickets/tickets-repository.ts',
      'server/modules/identity/*.ts',
      // The users' tenant and institute scope (the reach rule is identity/user-reach.ts).
      'server/modules/users/users-service.ts',
      'server/modules/realtime/*.ts',
    ],
    configFile: 'scripts/mutation/vitest.server.config.ts',
  },
};
const chosen = scopes[/** @type {keyof typeof scopes} */ (scope)];
if (!chosen) throw new Error(`MUTATION_SCOPE must be one of ${Object.keys(scopes).join(', ')}`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: chosen.configFile, related: false },
  // MUTATION_FILES=a.ts,b.ts narrows a run to some files of the scope (a quicker measurement).
  mutate: process.env.MUTATION_FILES ? process.env.MUTATION_FILES.split(',') : chosen.mutate,
  coverageAnalysis: 'perTest',
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: `reports/mutation/${scope}${suffix}/mutation.html` },
  jsonReporter: { fileName: `reports/mutation/${scope}${suffix}/mutation.json` },
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 1),
  timeoutMS: 20_000,
  // The first run over every test measures per-test coverage; on a shared 2-core machine it
  // takes minutes.
  dryRunTimeoutMinutes: 30,
  tempDirName: `.stryker-tmp/${scope}${suffix}`,
  cleanTempDir: true,
  // Other scopes' sandboxes and earlier reports are not copied into a new sandbox.
  ignorePatterns: ['/.stryker-tmp', '/reports', '/dist', '/coverage', ...(process.env.MUTATION_TESTS === 'before' ? [] : ['/mutation-before'])],
  ignoreStatic: true,
  thresholds: { high: 90, low: 80, break: null },
};
