/**
 * Item statistics and the "Result sheet" export at scale (issue 20, EXAMS.md §6):
 * - statistics of 10,000 deliveries × 100 items: budget ≤ 10 s (the statistics alone; the
 *   scoring of the same answers with the one scorer is timed beside it, its budget is 60 s);
 * - export of 10,000 results rows with the seeded "Result sheet" template to .xlsx (and .csv
 *   beside it): budget ≤ 20 s.
 * One thread, in memory: the deliveries' answers are generated (a seeded ability model, so the
 * figures are those of a plausible sitting, with one key-error item) and read through the same
 * functions the route and the export job use (scoreDeliveryAnswers, analysePaper, writeExport).
 * The database reads of the job are not in these figures.
 */
import os from 'node:os';
import ExcelJS from 'exceljs';
import type { ItemContent } from '#machines/items/item-schema.ts';
import type { PaperSet, PaperSnapshot, SetItem } from '#machines/papers/paper-sets.ts';
import { resultRows, writeExport, type ExportSpec, type RowProducer } from '#server/modules/statistics/exports.ts';
import { analysePaper } from '#server/modules/statistics/paper-statistics.ts';
import { scoreDeliveryAnswers, type PaperForScoring, type ResultRow, type ScoredDelivery } from '#server/modules/statistics/score-deliveries.ts';
import { seededExportTemplates } from '#server/modules/statistics/seeded-export-templates.ts';

const STATISTICS_BUDGET_S = 10;
const EXPORT_BUDGET_S = 20;
const OPTIONS = ['A', 'B', 'C', 'D'];

/** sfc32: a small seeded generator, so every run sees the same sitting. */
function random(seed: number) {
  let a = seed;
  let b = seed ^ 0x9e3779b9;
  let c = 0x243f6a88;
  let d = 0x85a308d3;
  return () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

function mcq(n: number): ItemContent {
  return {
    kind: 'singleChoice',
    variants: { en: { stem: `<p>Question ${n}</p>`, choices: Object.fromEntries(OPTIONS.map((o) => [o, `Option ${o}`])) } },
    marking: { correct: 4, wrong: -1, unanswered: 0 },
    media: [],
    options: OPTIONS.map((id) => ({ id, keepLast: false })),
    correct: 'A',
    shuffle: false,
  } as ItemContent;
}

export function benchPaper(itemCount = 100): PaperForScoring {
  const items: PaperSnapshot['items'] = {};
  const setItems: SetItem[] = [];
  for (let n = 1; n <= itemCount; n += 1) {
    const versionId = String(1000 + n);
    items[versionId] = { versionId, itemId: String(n), categoryId: null, difficulty: null, content: mcq(n) };
    setItems.push({ number: n, versionId, itemId: String(n), categoryId: null, difficulty: null, marks: 4, options: OPTIONS, left: null, right: null });
  }
  const set: PaperSet = { letter: 'A', seed: 'bench', sections: [{ sectionId: '1', items: setItems }] };
  return { paperId: 1, code: 'BENCH-1', title: 'Benchmark paper', snapshot: { sections: [], items }, sets: new Map([['A', set]]) };
}

/** Each candidate has an ability, each item a difficulty; item 7 has a wrong key (B is what the able choose). */
export function benchAnswers(deliveries = 10_000, itemCount = 100, seed = 20) {
  const rnd = random(seed);
  const difficulty = Array.from({ length: itemCount }, () => rnd() * 3 - 1.5);
  const out: Array<{ deliveryId: number; setLetter: string; answers: Map<number, unknown> }> = [];
  for (let d = 1; d <= deliveries; d += 1) {
    const ability = (rnd() + rnd() + rnd() - 1.5) * 2;
    const answers = new Map<number, unknown>();
    for (let n = 1; n <= itemCount; n += 1) {
      if (rnd() < 0.04) continue; // omitted
      const p = 1 / (1 + Math.exp(-(ability - difficulty[n - 1])));
      const right = rnd() < p;
      const wrong = OPTIONS[1 + Math.floor(rnd() * 3)];
      answers.set(n, n === 7 ? (right ? 'B' : 'A') : right ? 'A' : wrong);
    }
    out.push({ deliveryId: d, setLetter: 'A', answers });
  }
  return out;
}

export async function benchStatistics(deliveries = 10_000, itemCount = 100) {
  console.log(
    `  ${deliveries.toLocaleString('en')} deliveries × ${itemCount} items; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const paper = benchPaper(itemCount);
  const answers = benchAnswers(deliveries, itemCount);

  const scoreStart = performance.now();
  const scored: ScoredDelivery[] = answers.map((a) => scoreDeliveryAnswers(paper, a));
  const scoreSeconds = (performance.now() - scoreStart) / 1000;
  console.log(`statistics: scoring ${(deliveries * itemCount).toLocaleString('en')} answers with the one scorer: ${scoreSeconds.toFixed(2)} s`);

  const statsStart = performance.now();
  const analysis = analysePaper(paper, scored);
  const statsSeconds = (performance.now() - statsStart) / 1000;
  const verdict = statsSeconds <= STATISTICS_BUDGET_S ? `✓ under ${STATISTICS_BUDGET_S} s` : `✗ budget ${STATISTICS_BUDGET_S} s`;
  const flagged = analysis.items.filter((i) => i.flags.some((f) => f !== 'noVariance')).map((i) => i.number);
  console.log(
    `statistics: item analysis of ${deliveries.toLocaleString('en')} × ${itemCount}: ${statsSeconds.toFixed(2)} s  ${verdict}  ` +
      `(mean ${analysis.paper.mean?.toFixed(1)} of ${analysis.paper.maxTotal}, SD ${analysis.paper.sd?.toFixed(1)}, ${analysis.paper.reliabilityKind} ${analysis.paper.reliability?.toFixed(3)}, flagged ${flagged.join(', ')})`,
  );

  // The Result sheet: the rows a results source gives, in batches of 500, as the job writes them.
  const template = seededExportTemplates.find((t) => t.name === 'Result sheet')!;
  const rows: ResultRow[] = scored.map((score, k) => ({
    deliveryId: score.deliveryId,
    setLetter: score.setLetter,
    status: 'Submitted',
    rollNumber: `MAR27AHM-001${String(k + 1).padStart(5, '0')}`,
    candidateName: `Candidate ${k + 1}`,
    centerId: 1,
    centerName: 'Navrangpura Public School',
    paperId: 1,
    paperCode: paper.code,
    paperTitle: paper.title,
    submittedAt: new Date(Date.UTC(2027, 2, 10, 6, k % 60)).toISOString(),
    score,
  }));
  const producer: RowProducer = {
    count: async () => rows.length,
    async *batches() {
      for (let i = 0; i < rows.length; i += 500) yield resultRows(rows.slice(i, i + 500));
    },
  };
  const figures: Record<string, number> = {};
  for (const fileType of ['xlsx', 'csv'] as const) {
    const spec: ExportSpec = { recordKind: 'results', fileType, columns: template.columns, filters: {}, language: 'hi' };
    const started = performance.now();
    const { content, rows: written } = await writeExport(producer, spec);
    const seconds = (performance.now() - started) / 1000;
    figures[fileType] = seconds;
    const ok = seconds <= EXPORT_BUDGET_S ? `✓ under ${EXPORT_BUDGET_S} s` : `✗ budget ${EXPORT_BUDGET_S} s`;
    console.log(
      `statistics: Result sheet export, ${written.toLocaleString('en')} rows to .${fileType}: ${seconds.toFixed(2)} s, ${(content.length / 1024).toFixed(0)} KB  ${ok}`,
    );
    if (fileType === 'xlsx') {
      // The file reads back: the header row in Hindi and as many data rows as results.
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(content as unknown as ArrayBuffer);
      const sheet = book.worksheets[0];
      if (sheet.rowCount !== written + 1 || sheet.getRow(1).getCell(1).value !== template.columns[0].headers.hi) {
        console.log(`statistics: ✗ the .xlsx did not read back (${sheet.rowCount} rows)`);
        process.exitCode = 1;
      }
    }
  }
  if (statsSeconds > STATISTICS_BUDGET_S || figures.xlsx > EXPORT_BUDGET_S) process.exitCode = 1;
  return { scoreSeconds, statsSeconds, exportSeconds: figures };
}
