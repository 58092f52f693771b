/**
 * Scoring an exam (issue 20, EXAMS.md §6): 10,000 submitted scripts × 100 items, each through
 * `scoreScript` as the server scores a submission (docs/decisions/0250): the one scorer per
 * answer, the bank marking scaled to the paper's marks, negative marks, partial credit, a
 * section with "attempt any 20 of 25", totals, grade bands and the pass rule. Budget ≤ 60 s on
 * one core. The paper: 60 single-choice (+4 / −1), 15 multiple-choice with partial credit,
 * 25 numeric in an "any 20 of 25" section; the answers are drawn from a seeded generator
 * (right, wrong, half-right, unanswered), as the saved answers of a delivery are parsed JSON.
 * Storage (the result rows) is not in this figure: it is one multi-row insert per delivery.
 */
import os from 'node:os';
import type { ItemContent, ItemResponse } from '#machines/items/item-schema.ts';
import type { PaperSet, PaperSnapshot, SetItem } from '#machines/papers/paper-sets.ts';
import { seededRandom } from '#machines/papers/paper-sets.ts';
import { scoreScript, type ExamRules } from '#machines/results/scoring.ts';

const BUDGET_SECONDS = 60;

const opts = (...ids: string[]) => ids.map((id) => ({ id, keepLast: false }));
const single = (n: number): ItemContent => ({
  kind: 'singleChoice',
  variants: { en: { stem: `<p>Q${n}</p>`, choices: { A: 'a', B: 'b', C: 'c', D: 'd' } } },
  marking: { correct: 4, wrong: -1, unanswered: 0 },
  media: [],
  options: opts('A', 'B', 'C', 'D'),
  correct: 'ABCD'[n % 4],
  shuffle: true,
});
const multiple = (n: number): ItemContent => ({
  kind: 'multipleChoice',
  variants: { en: { stem: `<p>Q${n}</p>`, choices: { A: 'a', B: 'b', C: 'c', D: 'd' } } },
  marking: { correct: 4, wrong: -2, unanswered: 0 },
  media: [],
  options: opts('A', 'B', 'C', 'D'),
  correct: ['A', 'C'],
  minChoices: 0,
  maxChoices: 0,
  shuffle: true,
  partial: { perCorrect: 1, perWrong: -1, wrongCancels: false },
});
const numeric = (n: number): ItemContent => ({
  kind: 'numeric',
  variants: { en: { stem: `<p>Q${n}</p>` } },
  marking: { correct: 4, wrong: 0, unanswered: 0 },
  media: [],
  answer: n,
  tolerance: { mode: 'absolute', value: 0.5 },
});

function paper(): { snapshot: PaperSnapshot; set: PaperSet } {
  const plan: Array<{ id: string; attemptAny: number | null; make: (n: number) => ItemContent; count: number; marks: number }> = [
    { id: 'single', attemptAny: null, make: single, count: 60, marks: 4 },
    { id: 'multiple', attemptAny: null, make: multiple, count: 15, marks: 4 },
    { id: 'numeric', attemptAny: 20, make: numeric, count: 25, marks: 4 },
  ];
  const snapshot: PaperSnapshot = { sections: [], items: {} };
  const set: PaperSet = { letter: 'A', seed: 'bench', sections: [] };
  let number = 0;
  for (const [order, s] of plan.entries()) {
    const items: SetItem[] = [];
    for (let i = 0; i < s.count; i += 1) {
      number += 1;
      const versionId = `v${number}`;
      // As the server reads them: parsed from the stored snapshot JSON.
      snapshot.items[versionId] = {
        versionId,
        itemId: versionId,
        categoryId: null,
        difficulty: null,
        content: JSON.parse(JSON.stringify(s.make(number))) as ItemContent,
      };
      items.push({ number, versionId, itemId: versionId, categoryId: null, difficulty: null, marks: s.marks, options: null, left: null, right: null });
    }
    snapshot.sections.push({
      id: s.id,
      order,
      title: s.id,
      marksPerItem: s.marks,
      attemptAny: s.attemptAny,
      shuffleItems: true,
      shuffleOptions: true,
      fixed: [],
      draws: null,
    });
    set.sections.push({ sectionId: s.id, items });
  }
  return { snapshot, set };
}

function answersFor(snapshot: PaperSnapshot, set: PaperSet, random: (n: number) => number): Map<number, ItemResponse | null> {
  const out = new Map<number, ItemResponse | null>();
  for (const section of set.sections) {
    for (const item of section.items) {
      const content = snapshot.items[item.versionId].content;
      const roll = random(10);
      if (roll === 0) continue; // unanswered
      switch (content.kind) {
        case 'singleChoice':
          out.set(item.number, roll < 7 ? content.correct : 'ABCD'[random(4)]);
          break;
        case 'multipleChoice':
          out.set(item.number, roll < 5 ? ['A', 'C'] : roll < 8 ? ['A'] : ['B', 'D']);
          break;
        case 'numeric':
          out.set(item.number, roll < 6 ? String(content.answer) : String(random(100)));
          break;
        default:
          break;
      }
    }
  }
  return out;
}

export async function benchScoringExam(deliveries = Number(process.env.BENCH_DELIVERIES ?? 10_000)) {
  const { snapshot, set } = paper();
  const rules: ExamRules = {
    passPercent: 33,
    gradeBands: [
      { grade: 'A', minPercent: 75 },
      { grade: 'B', minPercent: 50 },
      { grade: 'C', minPercent: 33 },
    ],
  };
  const random = seededRandom('scoring-exam');
  // The saved answers, parsed JSON as the server reads them (not timed: reading them is the database's part).
  const scripts = Array.from(
    { length: deliveries },
    () => JSON.parse(JSON.stringify([...answersFor(snapshot, set, random)])) as Array<[number, ItemResponse]>,
  ).map((entries) => new Map(entries));
  console.log(
    `  ${deliveries.toLocaleString('en')} scripts × 100 items (60 single +4/−1, 15 multiple with partial credit, 25 numeric "any 20 of 25"); load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${os.cpus().length} cores`,
  );
  for (let i = 0; i < Math.min(200, scripts.length); i += 1) scoreScript(snapshot, set, scripts[i], rules);
  let checksum = 0;
  let passed = 0;
  const started = performance.now();
  for (const answers of scripts) {
    const s = scoreScript(snapshot, set, answers, rules);
    checksum += s.total;
    if (s.passed) passed += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  const verdict = seconds <= BUDGET_SECONDS ? `✓ under ${BUDGET_SECONDS} s` : `✗ budget ${BUDGET_SECONDS} s`;
  console.log(
    `scoring-exam: ${deliveries.toLocaleString('en')} deliveries × 100 items in ${seconds.toFixed(2)} s on one core = ${Math.round(deliveries / seconds).toLocaleString('en')} scripts/s  ${verdict}  (passed ${passed.toLocaleString('en')}, checksum ${checksum.toFixed(2)})`,
  );
  if (seconds > BUDGET_SECONDS) process.exitCode = 1;
  return { deliveries, seconds };
}
