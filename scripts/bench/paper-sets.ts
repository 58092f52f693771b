/**
 * Set generation (issue 17, EXAMS.md §6): 4 sets of a 200-item paper in ≤ 1 s, byte-identical
 * when regenerated from their seeds.
 *
 * 1. The pure core, as the server runs it on lock and on POST …/sets: lock snapshot of a
 *    200-item paper (100 fixed items in two sections, 100 drawn from a bank of 400 in six
 *    cells), then 4 sets generated, serialized, hashed, checked for equivalence and
 *    regenerated from their seeds. Median of 20 runs.
 * 2. The same over HTTP on an in-process server (PGlite): POST /api/v1/paper/:id/sets with
 *    count 4 on a locked 200-item paper (loads the snapshot, writes 4 sets). Median of 10.
 * 3. The PDF of a 100-item bilingual (en + hi) set, GET …/sets/A/pdf: budget ≤ 5 s for the first
 *    print, which includes starting Chromium; later prints reuse it.
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import type { ItemContent } from '#machines/items/item-schema.ts';
import { computeBlueprint } from '#machines/papers/blueprint.ts';
import { DIFFICULTIES, setLetter, type PaperItem, type PaperSpec } from '#machines/papers/paper-records.ts';
import { checkEquivalence, generateSet, lockSnapshot, serializeSet } from '#machines/papers/paper-sets.ts';
import { addSection, createPaper, insertItem, insertItems, paperCall, paperWorld, sendPaperEvent } from '#tests/server/papers/papers-kit.ts';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '#server/app.ts';
import { openDb } from '#server/db/client.ts';
import { migrate } from '#server/db/migrate.ts';
import { seed } from '#server/db/seed.ts';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';
import { testConfig } from '#tests/setup/test-app.ts';

const BUDGET_MS = 1000;
const PDF_BUDGET_MS = 5000;

function content(n: number): ItemContent {
  const ids = ['A', 'B', 'C', 'D', 'E'];
  return {
    kind: 'singleChoice',
    variants: {
      en: {
        stem: `<p>Question ${n}: which of these is right? ${'Lorem ipsum dolor sit amet. '.repeat(6)}</p>`,
        choices: Object.fromEntries(ids.map((id) => [id, `<p>Option ${id} of ${n}</p>`])),
      },
      hi: {
        // Conjuncts and matras on every line (क्ष, त्र, द्व, ज्ञ, श्र), as a board paper has them.
        stem: `<p>प्रश्न ${n}: इनमें से कौन सही है? ${'त्रिभुज का क्षेत्रफल और द्विघात समीकरण का ज्ञान आवश्यक है। '.repeat(3)}</p>`,
        choices: Object.fromEntries(ids.map((id) => [id, `<p>विकल्प ${id}: ${n} श्रेणी</p>`])),
      },
    },
    marking: { correct: 4, wrong: -1, unanswered: 0 },
    media: [],
    options: ids.map((id, i) => ({ id, keepLast: i === 4 })),
    correct: 'A',
    shuffle: true,
  };
}

function corePaper() {
  const bank: PaperItem[] = [];
  for (let i = 0; i < 500; i += 1) {
    bank.push({ versionId: `v${i}`, itemId: `i${i}`, categoryId: `c${i % 2}`, difficulty: DIFFICULTIES[i % 3], approved: true, content: content(i) });
  }
  const fixed = bank.slice(0, 100).map((i) => i.versionId);
  const spec: PaperSpec = {
    totalMarks: 0,
    languages: ['en', 'hi'],
    sections: [
      {
        id: 's1',
        order: 1,
        title: 'A',
        marksPerItem: 1,
        attemptAny: null,
        shuffleItems: true,
        shuffleOptions: true,
        rule: { kind: 'fixed', items: fixed.slice(0, 50) },
      },
      {
        id: 's2',
        order: 2,
        title: 'B',
        marksPerItem: 2,
        attemptAny: null,
        shuffleItems: true,
        shuffleOptions: true,
        rule: { kind: 'fixed', items: fixed.slice(50) },
      },
      {
        id: 's3',
        order: 3,
        title: 'C',
        marksPerItem: 4,
        attemptAny: null,
        shuffleItems: true,
        shuffleOptions: true,
        rule: {
          kind: 'draw',
          draws: ['c0', 'c1'].flatMap((categoryId) => DIFFICULTIES.map((difficulty) => ({ categoryId, difficulty, count: difficulty === 'hard' ? 16 : 17 }))),
        },
      },
    ],
  };
  const items = new Map(bank.map((i) => [i.versionId, i]));
  spec.totalMarks = computeBlueprint(spec, items, bank).computedMarks;
  return { spec, items, bank };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function benchPaperSets() {
  console.log(
    `  load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const { spec, items, bank } = corePaper();
  const runs: number[] = [];
  let bytes = 0;
  for (let run = 0; run < 20; run += 1) {
    const started = performance.now();
    const snapshot = lockSnapshot(spec, items, bank);
    const sets = [0, 1, 2, 3].map((i) => generateSet(snapshot, setLetter(i), `seed-${run}-${i}`));
    const texts = sets.map(serializeSet);
    texts.forEach((t) => createHash('sha256').update(t).digest('hex'));
    if (!checkEquivalence(sets).equivalent) throw new Error('sets not equivalent');
    sets.forEach((set, i) => {
      if (serializeSet(generateSet(snapshot, set.letter, set.seed)) !== texts[i]) throw new Error('regeneration differs');
    });
    runs.push(performance.now() - started);
    bytes = texts.reduce((n, t) => n + t.length, 0);
  }
  const itemCount = spec.sections.reduce((n, s) => n + (s.rule.kind === 'fixed' ? s.rule.items.length : s.rule.draws.reduce((m, d) => m + d.count, 0)), 0);
  const core = median(runs);
  console.log(
    `paper sets (core): ${itemCount}-item paper, lock snapshot + 4 sets + hash + equivalence + regeneration: median ${core.toFixed(1)} ms, max ${Math.max(...runs).toFixed(1)} ms (4 sets = ${(bytes / 1024).toFixed(1)} KiB)  ${core <= BUDGET_MS ? `✓ under ${BUDGET_MS} ms` : `✗ budget ${BUDGET_MS} ms`}`,
  );

  const dir = await mkdtemp(path.join(tmpdir(), 'bench-papers-'));
  const db = await openDb({ dataDir: path.join(dir, 'db') });
  await migrate(db);
  await seed(db, { adminEmail: TEST_ADMIN_EMAIL, adminPassword: TEST_ADMIN_PASSWORD });
  const app = await buildApp({ config: testConfig(dir), db, logger: false, runJobs: false });
  await app.ready();
  try {
    const world = await paperWorld(app);
    // 100 different items (each its own stem and options), so the print lays out 100 distinct questions.
    const fixedA = [];
    for (let i = 0; i < 100; i += 1)
      fixedA.push(await insertItem(db, world, { categoryId: world.categories.algebra, difficulty: 'medium', content: content(i) }));
    await insertItems(db, world, 150, { categoryId: world.categories.geometry, difficulty: 'hard', content: content(2) });
    const paper = await createPaper(app, world, { totalMarks: 100 + 400 });
    await addSection(app, world, paper.paperId, { title: 'A', marksPerItem: 1, rule: { kind: 'fixed', items: fixedA.map((f) => f.versionId) } });
    await addSection(app, world, paper.paperId, {
      title: 'B',
      marksPerItem: 4,
      rule: { kind: 'draw', draws: [{ categoryId: world.categories.geometry, difficulty: 'hard', count: 100 }] },
    });
    await sendPaperEvent(app, world, world.setter, paper.paperId, 'paper.submit');
    const lockStart = performance.now();
    const locked = await sendPaperEvent(app, world, world.moderator, paper.paperId, 'paper.lock');
    const lockMs = performance.now() - lockStart;
    if (locked.statusCode !== 200) throw new Error(`lock ${locked.statusCode}: ${locked.body}`);
    const http: number[] = [];
    for (let run = 0; run < 10; run += 1) {
      const started = performance.now();
      const res = await paperCall(app, world, world.setter, 'POST', `/api/v1/paper/${paper.paperId}/sets`, { count: 4 });
      http.push(performance.now() - started);
      if (res.statusCode !== 201) throw new Error(`sets ${res.statusCode}: ${res.body}`);
    }
    const over = median(http);
    console.log(
      `paper sets (HTTP, PGlite): lock of a 200-item paper ${lockMs.toFixed(0)} ms; POST …/sets count 4: median ${over.toFixed(1)} ms, max ${Math.max(...http).toFixed(1)} ms  ${over <= BUDGET_MS ? `✓ under ${BUDGET_MS} ms` : `✗ budget ${BUDGET_MS} ms`}`,
    );

    // The print: a 100-item bilingual (en + hi) set as PDF, first print (Chromium starts) and warm.
    const printPaper = await createPaper(app, world, { totalMarks: 100 });
    await addSection(app, world, printPaper.paperId, { title: 'A', marksPerItem: 1, rule: { kind: 'fixed', items: fixedA.map((f) => f.versionId) } });
    await sendPaperEvent(app, world, world.setter, printPaper.paperId, 'paper.submit');
    await sendPaperEvent(app, world, world.moderator, printPaper.paperId, 'paper.lock');
    await paperCall(app, world, world.setter, 'POST', `/api/v1/paper/${printPaper.paperId}/sets`, { count: 1 });
    const prints: Array<{ ms: number; bytes: number; pages: number }> = [];
    let lastPdf: Buffer | undefined;
    for (let run = 0; run < 4; run += 1) {
      const started = performance.now();
      const res = await paperCall(app, world, world.setter, 'GET', `/api/v1/paper/${printPaper.paperId}/sets/A/pdf?languages=en,hi`);
      if (res.statusCode !== 200) throw new Error(`pdf ${res.statusCode}: ${res.body.slice(0, 200)}`);
      lastPdf = res.rawPayload;
      prints.push({
        ms: performance.now() - started,
        bytes: res.rawPayload.length,
        pages: (res.rawPayload.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/g) ?? []).length,
      });
    }
    const warm = median(prints.slice(1).map((p) => p.ms));
    // Kept for people to look at (render a page with `pdftoppm -png -r 150 -f 3 -l 3 <file> page`).
    const keep = path.resolve(import.meta.dirname, '../../test-results/papers');
    await mkdir(keep, { recursive: true });
    await writeFile(path.join(keep, 'bench-100-items-en-hi.pdf'), lastPdf!);
    console.log(
      `paper PDF: 100-item bilingual (en + hi) set: first print ${prints[0].ms.toFixed(0)} ms (Chromium starts), then median ${warm.toFixed(0)} ms; ${(prints[0].bytes / 1024).toFixed(0)} KiB, ${prints[0].pages} A4 pages  ${prints[0].ms <= PDF_BUDGET_MS ? `✓ under ${PDF_BUDGET_MS} ms` : `✗ budget ${PDF_BUDGET_MS} ms`}`,
    );
    if (core > BUDGET_MS || over > BUDGET_MS || prints[0].ms > PDF_BUDGET_MS) process.exitCode = 1;
    return { core, http: over, lockMs, pdfFirstMs: prints[0].ms, pdfWarmMs: warm, pdfBytes: prints[0].bytes };
  } finally {
    await app.close();
    await db.close().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  }
}
