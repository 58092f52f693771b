import type { FlowDefinition } from '#machines/exams/review-flow.machine.ts';
import { serviceApi } from '#src/lib/http/api.ts';

/** GET /api/machines/coverage (Permissions.Machines.View): the latest test run's coverage per machine. */
export interface CoverageCounts {
  covered: number;
  total: number;
  uncovered: string[];
}

export type ReplaySystem = 'machine' | 'jsdom' | 'chromium' | 'http';

/** One system the paths were replayed against in the latest run (issue 14). */
export interface MachineReplay {
  system: ReplaySystem;
  /** Each step was checked against an expectation written independently of the machine. */
  independent: boolean;
  ranAt: string;
  passed: number;
  failed: number;
  /** Result per path, by graph-coverage's pathKey. */
  results: Record<string, 'passed' | 'failed'>;
}

export interface MachineCoverage {
  machineId: string;
  states: CoverageCounts;
  transitions: CoverageCounts;
  generatedAt: string | null;
  /** Transitions walked by a passing replay with an independent check: what the badge counts. */
  verified: CoverageCounts;
  replays: MachineReplay[];
  /** StrykerJS score of the machine's file, when a report exists. */
  mutationScore: number | null;
}

const api = serviceApi('userService');

/** GET /api/machines/flows: every active review flow of the projects in the caller's scope (docs/decisions/0092). */
export interface ScopeFlow {
  projectId: number;
  projectCode: string;
  projectName: string;
  flowId: number;
  name: string;
  recordKind: 'item' | 'paper';
  definition: FlowDefinition;
  version: number;
  machineId: string;
}

export const machinesApi = {
  coverage: () => api.get<{ reports: MachineCoverage[] }>('/machines/coverage', { showErrors: false }).then((body) => body.reports),
  /** A global call: no workspace headers. */
  flows: () => serviceApi('projectService').get<ScopeFlow[]>('/machines/flows', { showErrors: false, workspace: 'global' }),
};
