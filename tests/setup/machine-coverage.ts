import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AnyStateMachine } from 'xstate';
import { computeCoverage, coverageLine, type CoverageReport, type PathLike } from '#machines/graph-coverage.ts';

/** Where model-based tests leave their coverage; the /machines page reads it from here. */
export const machineCoverageDir = path.resolve(import.meta.dirname, '../../coverage/machines');

/**
 * Prints the coverage line of a machine and writes its JSON report
 * (`coverage/machines/<machine id>.json`). Call once per machine, after its paths ran.
 */
export function reportMachineCoverage(machine: AnyStateMachine, paths: readonly PathLike[], extra: { pathsWalked?: string[] } = {}): CoverageReport {
  const report = computeCoverage(machine, paths);
  mkdirSync(machineCoverageDir, { recursive: true });
  writeFileSync(path.join(machineCoverageDir, `${machine.id}.json`), JSON.stringify({ ...report, generatedAt: new Date().toISOString(), ...extra }, null, 2));
  console.log(`[machine coverage] ${coverageLine(report)}`);
  return report;
}
