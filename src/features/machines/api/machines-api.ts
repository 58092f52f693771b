import { serviceApi } from '#src/lib/http/api.ts';

/** GET /api/machines/coverage (Permissions.Machines.View): the latest test run's coverage per machine. */
export interface CoverageCounts {
  covered: number;
  total: number;
  uncovered: string[];
}

export interface MachineCoverage {
  machineId: string;
  states: CoverageCounts;
  transitions: CoverageCounts;
  generatedAt: string | null;
}

const api = serviceApi('userService');

export const machinesApi = {
  coverage: () => api.get<{ reports: MachineCoverage[] }>('/machines/coverage', { showErrors: false }).then((body) => body.reports),
};
