/**
 * `npm run bench [-- name…]`: runs the named benchmarks (all when none is named) and prints
 * their figures. Each benchmark lives in its own file in this folder.
 */
import { benchAdmitCard } from './admit-card.ts';
import { benchAllocation } from './allocation.ts';
import { benchApi } from './api.ts';
import { benchBundle } from './bundle-size.ts';
import { benchDelivery } from './delivery.ts';
import { benchExamWorkspace } from './exam-workspace.ts';
import { benchItemBank } from './item-bank.ts';
import { benchLighthouse } from './lighthouse.ts';
import { benchMachinesPage } from './machines-page.ts';
import { benchPaperSets } from './paper-sets.ts';
import { benchProfile } from './profile-page.ts';
import { benchQtiImport } from './qti-import.ts';
import { benchRealtime } from './realtime.ts';
import { benchScoring } from './scoring.ts';
import { benchScoringExam } from './scoring-exam.ts';
import { benchStartup } from './startup.ts';
import { benchStatistics } from './statistics.ts';
import { benchTicketSearch } from './tickets-search.ts';
import { benchUsers } from './users.ts';

const benchmarks: Record<string, () => Promise<unknown>> = {
  startup: () => benchStartup(),
  bundle: () => benchBundle(),
  lighthouse: () => benchLighthouse(),
  tickets: () => benchTicketSearch(),
  api: () => benchApi(),
  realtime: () => benchRealtime(),
  users: () => benchUsers(),
  scoring: () => benchScoring(),
  'scoring-exam': () => benchScoringExam(),
  qti: () => benchQtiImport(),
  exams: () => benchExamWorkspace(),
  items: () => benchItemBank(),
  papers: () => benchPaperSets(),
  allocation: () => benchAllocation(),
  admitcard: () => benchAdmitCard(),
  delivery: () => benchDelivery(),
  statistics: () => benchStatistics(),
  machines: () => benchMachinesPage(),
  profile: () => benchProfile(),
};
/** Tools for finding a cost, not budgets: run only when named. */
const onlyWhenNamed = new Set(['profile']);

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !benchmarks[name]);
if (unknown.length) {
  console.error(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${Object.keys(benchmarks).join(', ')}`);
  process.exit(2);
}
for (const name of wanted.length ? wanted : Object.keys(benchmarks).filter((name) => !onlyWhenNamed.has(name))) {
  console.log(`\n== ${name} ==`);
  await benchmarks[name]();
}
// A benchmark that breaches its budget sets process.exitCode.
process.exit(process.exitCode ?? 0);
