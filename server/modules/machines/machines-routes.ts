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

const Counts = Type.Object({
  covered: Type.Integer({ minimum: 0 }),
  total: Type.Integer({ minimum: 0 }),
  /** Ids (states) or keys (transitions) no test path walks. */
  uncovered: Type.Array(Type.String()),
});
const Report = Type.Object({
  machineId: Type.String(),
  states: Counts,
  transitions: Counts,
  generatedAt: Type.Union([Type.String(), Type.Null()]),
});
const CoverageList = Type.Object({ reports: Type.Array(Report) });

type CoverageReport = Static<typeof Report>;

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');
const isCounts = (value: unknown): value is { covered: string[]; total: string[] } =>
  typeof value === 'object' && value !== null && isStringList((value as { covered?: unknown }).covered) && isStringList((value as { total?: unknown }).total);

/** A report file as the tests write it, or null when it is not one. */
export function parseCoverageReport(text: string): CoverageReport | null {
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
  return { machineId, states: counts(states), transitions: counts(transitions), generatedAt: typeof generatedAt === 'string' ? generatedAt : null };
}

export async function machinesRoutes(app: FastifyInstance, opts: { coverageDir?: string }) {
  const dir = opts.coverageDir ?? defaultCoverageDir;

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
      let files: string[];
      try {
        files = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
      } catch {
        // No test run on this machine yet: every machine is "not measured".
        return { reports: [] };
      }
      const reports: CoverageReport[] = [];
      for (const file of files) {
        let report: CoverageReport | null = null;
        try {
          report = parseCoverageReport(await readFile(path.join(dir, file), 'utf8'));
        } catch (error) {
          app.log.warn({ err: error, file }, 'machine coverage report unreadable');
        }
        if (report) reports.push(report);
        else app.log.warn({ file }, 'machine coverage report skipped: not a coverage report');
      }
      return { reports };
    },
  );
}
