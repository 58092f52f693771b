import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AnyStateMachine } from 'xstate';
import { computeCoverage, type PathLike } from '#machines/graph-coverage.ts';
import { machineCoverageDir } from './machine-coverage.ts';

/** Where replays leave their results; the /machines page reads them (GET /api/machines/coverage). */
export const replayResultsDir = path.join(machineCoverageDir, 'replays');

export type ReplaySystem = 'machine' | 'jsdom' | 'chromium' | 'http';

export interface ReplayResultsFile {
  machineId: string;
  system: ReplaySystem;
  /** Whether every step was checked against an expectation written independently of the machine. */
  independent: boolean;
  ranAt: string;
  paths: Array<{ description: string; result: 'passed' | 'failed' }>;
  /** Transitions the passing paths walk (graph-coverage keys). */
  transitionsExercised: string[];
}

/**
 * Collects the result of each replayed path of one machine against one system, and writes
 * `coverage/machines/replays/<machine id>.<system>.json` when the file's tests are done.
 */
export function replayRecorder(machine: AnyStateMachine, system: ReplaySystem, independent: boolean) {
  const runs: Array<{ path: PathLike & { description: string }; passed: boolean }> = [];
  return {
    /** Runs one path's replay and notes whether it passed (the error still fails the test). */
    async run<T>(path: PathLike & { description: string }, replay: () => Promise<T>): Promise<T> {
      try {
        const result = await replay();
        runs.push({ path, passed: true });
        return result;
      } catch (error) {
        runs.push({ path, passed: false });
        throw error;
      }
    },
    write(): ReplayResultsFile {
      const passing = runs.filter((r) => r.passed).map((r) => r.path);
      const file: ReplayResultsFile = {
        machineId: machine.id,
        system,
        independent,
        ranAt: new Date().toISOString(),
        paths: runs.map((r) => ({ description: r.path.description, result: r.passed ? 'passed' : 'failed' })),
        transitionsExercised: computeCoverage(machine, passing).transitions.covered,
      };
      mkdirSync(replayResultsDir, { recursive: true });
      writeFileSync(path.join(replayResultsDir, `${machine.id}.${system}.json`), JSON.stringify(file, null, 2));
      return file;
    },
  };
}
