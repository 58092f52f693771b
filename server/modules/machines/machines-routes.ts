import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { P } from '#machines/permissions.ts';

/**
 * The coverage reports the model-based tests write (tests/setup/machine-coverage.ts →
 * coverage/machines/<machine id>.json), read at request time so the /machines page shows the
 * latest test run (docs/decisions/0071). A machine without a readable report is "not measured".
 */
export const defaultCoverageDir = path.resolve(import.meta.dirname, '../../../coverage/machines');
/** The StrykerJS report of machines/ (npm run mutation), when one was made on this machine. */
export const defaultMutationReport = path.resolve(import.meta.dirname, '../../../reports/mutation/machines/mutation.json');

const Counts = Type.Object({
  covered: Type.Integer({ minimum: 0 }),
  total: Type.Integer({ minimum: 0 }),
  /** Ids (states) or keys (transitions) no test path walks. */
  uncovered: Type.Array(Type.String()),
});
const ReplaySystem = Type.Union([Type.Literal('machine'), Type.Literal('jsdom'), Type.Literal('chromium'), Type.Literal('http')]);
const Replay = Type.Object({
  system: ReplaySystem,
  /** Every step was checked against an expectation written independently of the machine. */
  independent: Type.Boolean(),
  ranAt: Type.String(),
  passed: Type.Integer({ minimum: 0 }),
  failed: Type.Integer({ minimum: 0 }),
  /** Result per path, by graph-coverage's pathKey. */
  results: Type.Record(Type.String(), Type.Union([Type.Literal('passed'), Type.Literal('failed')])),
});
const Report = Type.Object({
  machineId: Type.String(),
  states: Counts,
  transitions: Counts,
  generatedAt: Type.Union([Type.String(), Type.Null()]),
  /** Transitions walked by a passing replay against a system with an independent check (the badge counts these). */
  verified: Counts,
  replays: Type.Array(Replay),
  /** StrykerJS score of the machine's file (killed or timed out / all but ignored and compile errors), when a report exists. */
  mutationScore: Type.Union([Type.Number(), Type.Null()]),
});
const CoverageList = Type.Object({ reports: Type.Array(Report) });

type CoverageReport = Static<typeof Report>;
type ParsedCoverage = Omit<CoverageReport, 'verified' | 'replays' | 'mutationScore'> & { transitionKeys: string[] };
type ReplayFile = Static<typeof Replay> & { machineId: string; transitionsExercised: string[] };

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');
const isCounts = (value: unknown): value is { covered: string[]; total: string[] } =>
  typeof value === 'object' && value !== null && isStringList((value as { covered?: unknown }).covered) && isStringList((value as { total?: unknown }).total);

/** A report file as the tests write it, or null when it is not one. */
export function parseCoverageReport(text: string): ParsedCoverage | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const { machineId, states, transitions, generatedAt } = data as Record<string, unknown>;
  if (typeof machineId !== 'string' || !isCounts(states) || !isCounts(transitions)) return null;
  const counts = (c: { covered: string[]; total: string[] }) => {
    const covered = new Set(c.covered);
    return { covered: c.total.filter((id) => covered.has(id)).length, total: c.total.length, uncovered: c.total.filter((id) => !covered.has(id)) };
  };
  return {
    machineId,
    states: counts(states),
    transitions: counts(transitions),
    generatedAt: typeof generatedAt === 'string' ? generatedAt : null,
    transitionKeys: transitions.total,
  };
}

const SYSTEMS = ['machine', 'jsdom', 'chromium', 'http'] as const;

/** A replay results file (tests/setup/replay-results.ts), or null when it is not one. */
export function parseReplayFile(text: string): ReplayFile | null {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const { machineId, system, independent, ranAt, paths, transitionsExercised } = data;
  if (
    typeof machineId !== 'string' ||
    !SYSTEMS.includes(system as never) ||
    typeof ranAt !== 'string' ||
    !Array.isArray(paths) ||
    !isStringList(transitionsExercised)
  )
    return null;
  const results: Record<string, 'passed' | 'failed'> = {};
  for (const entry of paths as Array<{ key?: unknown; result?: unknown }>) {
    if (typeof entry?.key !== 'string' || (entry.result !== 'passed' && entry.result !== 'failed')) continue;
    // Two paths with the same events (different start inputs): a failure of either shows.
    if (results[entry.key] !== 'failed') results[entry.key] = entry.result;
  }
  const values = Object.values(results);
  return {
    machineId,
    system: system as ReplayFile['system'],
    independent: independent === true,
    ranAt,
    passed: values.filter((r) => r === 'passed').length,
    failed: values.filter((r) => r === 'failed').length,
    results,
    transitionsExercised,
  };
}

/** machineId (`pagedSearch`, `version-check`) → the file that defines it (`paged-search.machine.ts`). */
export function machineFileName(machineId: string): string {
  return `${machineId.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}.machine.ts`;
}

/** Mutation score per machine file from a StrykerJS JSON report (mutation-testing-report-schema). */
export function mutationScores(text: string): Map<string, number> {
  const scores = new Map<string, number>();
  let report: { files?: Record<string, { mutants?: Array<{ status?: string }> }> };
  try {
    report = JSON.parse(text);
  } catch {
    return scores;
  }
  for (const [file, entry] of Object.entries(report?.files ?? {})) {
    const statuses = (entry?.mutants ?? []).map((m) => m.status);
    const detected = statuses.filter((s) => s === 'Killed' || s === 'Timeout').length;
    const undetected = statuses.filter((s) => s === 'Survived' || s === 'NoCoverage').length;
    if (detected + undetected > 0) scores.set(path.basename(file), Math.round((detected / (detected + undetected)) * 1000) / 10);
  }
  return scores;
}

async function readJsonFiles(dir: string): Promise<Array<{ file: string; text: string }>> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  } catch {
    return [];
  }
  const out: Array<{ file: string; text: string }> = [];
  for (const file of names) {
    try {
      out.push({ file, text: await readFile(path.join(dir, file), 'utf8') });
    } catch {
      // Removed meanwhile (a test run rewriting it): skipped this time.
    }
  }
  return out;
}

export async function machinesRoutes(app: FastifyInstance, opts: { coverageDir?: string; mutationReport?: string }) {
  const dir = opts.coverageDir ?? defaultCoverageDir;
  const mutationReport = opts.mutationReport ?? defaultMutationReport;

  app.get(
    '/machines/coverage',
    {
      config: { access: P.Machines.View },
      schema: {
        tags: ['machines'],
        summary: 'Coverage of the machines by their model-based tests, from the latest test run',
        security: [{ bearer: [] }],
        response: { 200: CoverageList },
      },
    },
    async () => {
      const replays = (await readJsonFiles(path.join(dir, 'replays'))).map(({ text }) => parseReplayFile(text)).filter((r): r is ReplayFile => r !== null);
      const scores = mutationScores(await readFile(mutationReport, 'utf8').catch(() => ''));
      const reports: CoverageReport[] = [];
      for (const { file, text } of await readJsonFiles(dir)) {
        const parsed = parseCoverageReport(text);
        if (!parsed) {
          app.log.warn({ file }, 'machine coverage report skipped: not a coverage report');
          continue;
        }
        const { transitionKeys, ...report } = parsed;
        const mine = replays.filter((r) => r.machineId === report.machineId);
        // The badge counts a transition only when a replay with an independent check walked it.
        const verifiedKeys = new Set(mine.filter((r) => r.independent).flatMap((r) => r.transitionsExercised));
        reports.push({
          ...report,
          verified: {
            covered: transitionKeys.filter((key) => verifiedKeys.has(key)).length,
            total: transitionKeys.length,
            uncovered: transitionKeys.filter((key) => !verifiedKeys.has(key)),
          },
          replays: mine.map(({ machineId: _id, transitionsExercised: _t, ...replay }) => replay),
          mutationScore: scores.get(machineFileName(report.machineId)) ?? null,
        });
      }
      return { reports };
    },
  );
}
