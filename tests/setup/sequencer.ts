import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The per-screen accessibility audits take about five minutes a file, the longest of the e2e
 * run. Vitest runs the larger files first when it has no timings cached (a clean clone, as in
 * CI), and these files are small, so they came last and one worker ran alone at the end
 * (decision 0288). They go first; the rest keep Vitest's order.
 */
const LONGEST = /\/tests\/e2e\/a11y-[a-z]+-[a-z]+\.test\.ts$/;

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter((file) => LONGEST.test(file.moduleId)), ...sorted.filter((file) => !LONGEST.test(file.moduleId))];
  }
}
