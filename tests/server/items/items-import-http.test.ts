import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import type { ItemContent, ItemResponse } from '#machines/items/item-schema.ts';
import { readZip } from '#server/lib/items/qti-zip.ts';
import { sampleItems } from '#tests/machines/items/support/sample-items.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, type TestUser } from '#tests/setup/test-users.ts';
import { call, multipart, tinyPng, uploadFiles } from '../exams/workspace-kit.ts';
import { createItem, itemBench, type ItemBench, type Json } from './item-kit.ts';
import { choiceQti3, scoreQtiXml, selectPointQti3 } from './support/qti-fixtures.ts';
import { manifestFor, rawZip } from './support/raw-zip.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function upload(app: FastifyInstance, user: TestUser, projectId: number, file: { name: string; content: Buffer }, fields: Record<string, string>) {
  const body = multipart(fields, [file]);
  return app.inject({
    method: 'POST',
    url: '/api/v1/item/import',
    headers: { ...as(user), ProjectId: String(projectId), ...body.headers },
    payload: body.payload,
  });
}

async function importAndWait(
  app: FastifyInstance,
  bench: ItemBench,
  file: { name: string; content: Buffer },
  categoryId = bench.categoryId,
  projectId = bench.projectId,
  user = bench.author,
): Promise<Json> {
  const res = await upload(app, user, projectId, file, { categoryId: String(categoryId), language: 'en' });
  expect(res.statusCode, res.body).toBe(202);
  const jobId = (res.json() as Json).jobId;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const job = (await call(app, user, 'GET', `/api/v1/item/import/${jobId}`, { project: projectId })).json() as Json;
    if (job.state === 'done' || job.state === 'failed') return job;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('import did not finish');
}

/** Responses worth trying on each sample kind: right, wrong, partial, empty. */
const responsesFor: Record<string, ItemResponse[]> = {
  singleChoice: ['A', 'B', null],
  multipleChoice: [['A', 'C'], ['A'], ['A', 'B'], null],
  trueFalse: [true, false, null],
  numeric: [9.81, 9.9, '9.8', null],
  shortText: ['Paris', 'paris', 'Lyon', null],
  fillInBlanks: [{}, null],
  matching: [[], null],
  ordering: [[], null],
  essay: ['An answer.', null],
};

describeEachDatabase(
  'item import and export over HTTP',
  (get) => {
    it('should import a single QTI 3 item as a job and score it as its own processing does', async () => {
      const { app } = get();
      const bench = await itemBench(app);
      const job = await importAndWait(app, bench, { name: 'choice.xml', content: Buffer.from(choiceQti3) });
      expect(job).toMatchObject({ state: 'done', format: 'qti', total: 1, created: 1, failed: 0, problems: [] });
      const item = (await call(app, bench.author, 'GET', `/api/v1/item/${job.createdItemIds[0]}`, { project: bench.projectId })).json() as Json;
      expect(item).toMatchObject({ code: 'photosynthesis-gas', status: 'Draft', categoryId: bench.categoryId, kind: 'singleChoice' });
      for (const choice of item.content.options.map((o: Json) => o.id)) {
        const ours = (
          await call(app, bench.author, 'POST', `/api/v1/item/${item.itemId}/score`, { project: bench.projectId, body: { responses: choice } })
        ).json() as Json;
        expect(ours.score).toBe(scoreQtiXml(choiceQti3, { RESPONSE: choice }));
      }
      // Imported again: the code is taken, so it gets a suffix.
      const again = await importAndWait(app, bench, { name: 'choice.xml', content: Buffer.from(choiceQti3) });
      const second = (await call(app, bench.author, 'GET', `/api/v1/item/${again.createdItemIds[0]}`, { project: bench.projectId })).json() as Json;
      expect(second.code).toBe('photosynthesis-gas-2');
      expect(second.duplicate?.itemId).toBe(item.itemId);
      const jobs = (await call(app, bench.author, 'GET', '/api/v1/item/import', { project: bench.projectId })).json() as Json[];
      expect(jobs.map((j) => j.jobId)).toEqual([again.jobId, job.jobId]);
    });

    it('should store package media as category files and report unmapped interactions per item', async () => {
      const { app } = get();
      const bench = await itemBench(app);
      const withImage = choiceQti3
        .replace('</qti-prompt>', '</qti-prompt>')
        .replace(/<qti-item-body>/, '<qti-item-body><p><img src="media/leaf.png" alt="leaf"/></p>');
      const zip = rawZip([
        { name: 'imsmanifest.xml', data: manifestFor(['items/leaf.xml', 'items/point.xml']) },
        { name: 'items/leaf.xml', data: Buffer.from(withImage) },
        { name: 'items/media/leaf.png', data: tinyPng },
        { name: 'items/point.xml', data: Buffer.from(selectPointQti3) },
      ]);
      const job = await importAndWait(app, bench, { name: 'package.zip', content: zip });
      expect(job).toMatchObject({ state: 'done', created: 1, failed: 1, filesCreated: 1 });
      expect(job.problems).toHaveLength(1);
      expect(job.problems[0]).toMatchObject({ identifier: 'find-mumbai', source: 'items/point.xml' });
      expect(job.problems[0].reasons.join(' ')).toMatch(/select-point/);
      const item = (await call(app, bench.author, 'GET', `/api/v1/item/${job.createdItemIds[0]}`, { project: bench.projectId })).json() as Json;
      expect(item.content.media).toHaveLength(1);
      const fileId = item.content.media[0].categoryFileId;
      const file = await call(app, bench.author, 'GET', `/api/v1/categoryfile/${fileId}`, { project: bench.projectId });
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(tinyPng)).toBe(true);
      // The error file lists the unmapped item with its reasons.
      const errors = await call(app, bench.author, 'GET', `/api/v1/item/import/${job.jobId}/errors`, { project: bench.projectId });
      expect(errors.headers['content-type']).toBe(XLSX);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(errors.rawPayload as never);
      const row = book.worksheets[0].getRow(2);
      expect(row.getCell(2).value).toBe('find-mumbai');
      expect(String(row.getCell(4).value)).toMatch(/select-point/);
    });

    it('should refuse hostile files with a clear message: entities, zip slip, zip bomb, unknown bytes', async () => {
      const { app } = get();
      const bench = await itemBench(app);
      const xxe = await importAndWait(app, bench, {
        name: 'xxe.xml',
        content: Buffer.from(
          '<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><qti-assessment-item identifier="x">&xxe;</qti-assessment-item>',
        ),
      });
      expect(xxe).toMatchObject({
        state: 'failed',
        created: 0,
        message: 'xxe.xml has a DOCTYPE or ENTITY declaration; QTI files are accepted without DTDs or entities',
      });
      const slip = await importAndWait(app, bench, {
        name: 'slip.zip',
        content: rawZip([
          { name: 'imsmanifest.xml', data: manifestFor(['items/a.xml']) },
          { name: 'items/a.xml', data: Buffer.from(choiceQti3) },
          { name: '../../evil.xml', data: Buffer.from('owned') },
        ]),
      });
      expect(slip).toMatchObject({ state: 'failed', message: 'unsafe path in the package: "../../evil.xml"' });
      const bomb = await importAndWait(app, bench, {
        name: 'bomb.zip',
        content: rawZip([
          { name: 'imsmanifest.xml', data: manifestFor([]) },
          { name: 'zeros.bin', data: Buffer.alloc(20 * 1024 * 1024) },
        ]),
      });
      expect(bomb.state).toBe('failed');
      expect(bomb.message).toMatch(/^zeros\.bin would inflate \d+-fold; refused as a zip bomb$/);
      const binary = await upload(
        app,
        bench.author,
        bench.projectId,
        { name: 'x.bin', content: Buffer.from([0, 1, 2, 3, 4, 5]) },
        { categoryId: String(bench.categoryId) },
      );
      expect(binary.statusCode).toBe(415);
      const noCategory = await upload(app, bench.author, bench.projectId, { name: 'c.xml', content: Buffer.from(choiceQti3) }, {});
      expect(noCategory.statusCode).toBe(400);
      const foreign = await upload(app, bench.author, bench.projectId, { name: 'c.xml', content: Buffer.from(choiceQti3) }, { categoryId: '999999' });
      expect(foreign.statusCode).toBe(400);
      const reviewer = await upload(
        app,
        bench.reviewer,
        bench.projectId,
        { name: 'c.xml', content: Buffer.from(choiceQti3) },
        { categoryId: String(bench.categoryId) },
      );
      expect(reviewer.statusCode).toBe(403);
      const notMultipart = await call(app, bench.author, 'POST', '/api/v1/item/import', { project: bench.projectId, body: { file: 'x' } });
      expect(notMultipart.statusCode).toBe(415);
    });

    it('should store imported items with every XSS payload removed', async () => {
      const { app } = get();
      const bench = await itemBench(app);
      const payload =
        '<img src="x" onerror="alert(1)"/><script>alert(2)</script><a href="javascript:alert(3)">go</a><iframe src="https://evil.test"></iframe><span style="x" onmouseover="alert(4)">s</span>';
      const hostile = choiceQti3
        .replace('<p>Green plants', `<p>${payload}Green plants`)
        .replace('>Oxygen<', `>Oxygen${payload}<`)
        .replace('<qti-prompt>Which gas is it?', `<qti-prompt>Which gas is it?${payload}`);
      const job = await importAndWait(app, bench, { name: 'hostile.xml', content: Buffer.from(hostile) });
      expect(job).toMatchObject({ state: 'done', created: 1 });
      const item = (await call(app, bench.author, 'GET', `/api/v1/item/${job.createdItemIds[0]}`, { project: bench.projectId })).json() as Json;
      const stored = JSON.stringify(item.content.variants);
      for (const bad of ['onerror', '<script', 'alert(2)', 'javascript:', '<iframe', 'onmouseover', 'style=']) expect(stored, bad).not.toContain(bad);
      expect(stored).toContain('Green plants');
    });

    it('should round-trip: export → import → export gives the same package, and the same responses the same scores', async () => {
      const { app } = get();
      const source = await itemBench(app);
      const files = (await uploadFiles(app, source.author, source.projectId, source.categoryId, [{ name: 'figure.png', content: tinyPng }])).json() as Json[];
      const withMedia: ItemContent = {
        ...sampleItems[0],
        media: [{ key: 'figure.png', categoryFileId: files[0].fileId, fileName: 'figure.png', mimeType: 'image/png' }],
        variants: {
          ...sampleItems[0].variants,
          en: { ...sampleItems[0].variants.en, stem: '<p>Look at the figure.</p><p><img src="media:figure.png" alt="figure" /></p>' },
        },
      } as ItemContent;
      for (const content of [withMedia, ...sampleItems.slice(1)]) await createItem(app, source, content);
      const first = await call(app, source.author, 'POST', '/api/v1/item/export', { project: source.projectId, body: { categoryId: source.categoryId } });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.headers['content-type']).toBe('application/zip');
      const target = await itemBench(app);
      const job = await importAndWait(app, target, { name: 'export.zip', content: first.rawPayload });
      expect(job).toMatchObject({ state: 'done', created: 9, failed: 0, filesCreated: 1 });
      const second = await call(app, target.author, 'POST', '/api/v1/item/export', { project: target.projectId, body: { itemIds: job.createdItemIds } });
      const [a, b] = [await readZip(first.rawPayload), await readZip(second.rawPayload)];
      expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
      for (const [name, bytes] of a) expect(b.get(name)!.toString('hex'), name).toBe(bytes.toString('hex'));
      expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
      // Same responses, same scores, on both sides.
      const sourceItems = (
        (await call(app, source.author, 'POST', '/api/v1/item/search', { project: source.projectId, body: { pageSize: 20, orderBy: ['code'] } })).json() as Json
      ).data;
      const targetItems = (
        (await call(app, target.author, 'POST', '/api/v1/item/search', { project: target.projectId, body: { pageSize: 20, orderBy: ['code'] } })).json() as Json
      ).data;
      expect(targetItems.map((i: Json) => i.code)).toEqual(sourceItems.map((i: Json) => i.code));
      for (let i = 0; i < sourceItems.length; i += 1) {
        for (const responses of responsesFor[sourceItems[i].kind]) {
          const x = (
            await call(app, source.author, 'POST', `/api/v1/item/${sourceItems[i].itemId}/score`, { project: source.projectId, body: { responses } })
          ).json() as Json;
          const y = (
            await call(app, target.author, 'POST', `/api/v1/item/${targetItems[i].itemId}/score`, { project: target.projectId, body: { responses } })
          ).json() as Json;
          expect(y, `${sourceItems[i].kind} ${JSON.stringify(responses)}`).toEqual(x);
        }
      }
      const single = await call(app, source.author, 'GET', `/api/v1/item/${sourceItems[0].itemId}/export`, { project: source.projectId });
      expect(single.statusCode).toBe(200);
      expect([...(await readZip(single.rawPayload)).keys()]).toContain('imsmanifest.xml');
      const neither = await call(app, source.author, 'POST', '/api/v1/item/export', { project: source.projectId, body: {} });
      expect(neither.statusCode).toBe(400);
    });

    it('should import the .xlsx template as a job with counts and an error file of every refused row', async () => {
      const { app } = get();
      const bench = await itemBench(app);
      const template = await call(app, bench.author, 'GET', '/api/v1/item/template', { project: bench.projectId });
      expect(template.headers['content-type']).toBe(XLSX);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(template.rawPayload as never);
      const sheet = book.worksheets[0];
      expect((sheet.getRow(1).values as unknown[]).filter(Boolean)).toContain('stem_gu');
      // The examples (one per kind) plus rows of our own, two of them wrong.
      const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
      const add = (cells: Record<string, string | number>) => sheet.addRow(header.map((h) => cells[h] ?? ''));
      add({
        code: 'HI-1',
        kind: 'singleChoice',
        difficulty: 'easy',
        answer: 'A',
        stem_en: 'Largest planet?',
        options_en: 'Jupiter\nMars',
        stem_hi: 'सबसे बड़ा ग्रह?',
        options_hi: 'बृहस्पति\nमंगल',
      });
      add({ kind: 'hotspot', stem_en: 'Click the heart' });
      add({ kind: 'singleChoice', answer: 'F', stem_en: 'Pick one', options_en: 'a\nb' });
      const buffer = Buffer.from(await book.xlsx.writeBuffer());
      const job = await importAndWait(app, bench, { name: 'items.xlsx', content: buffer });
      expect(job).toMatchObject({ state: 'done', format: 'xlsx', created: 10, failed: 2 });
      expect(job.problems.map((p: Json) => p.row)).toEqual([12, 13]);
      expect(job.problems[0].reasons[0]).toMatch(/^kind "hotspot" is not one of/);
      expect(job.problems[1].reasons).toEqual(['answer must be the letter(s) of the correct option(s), A to B.']);
      const kinds = (
        (await call(app, bench.author, 'POST', '/api/v1/item/search', { project: bench.projectId, body: { pageSize: 50 } })).json() as Json
      ).data.map((i: Json) => i.kind);
      expect(new Set(kinds).size).toBe(9);
      const hi = ((await call(app, bench.author, 'POST', '/api/v1/item/search', { project: bench.projectId, body: { keyword: 'HI-1' } })).json() as Json)
        .data[0];
      expect(hi.languages).toEqual(['en', 'hi']);
      const fill = ((await call(app, bench.author, 'POST', '/api/v1/item/search', { project: bench.projectId, body: { kind: 'fillInBlanks' } })).json() as Json)
        .data[0];
      const right = await call(app, bench.author, 'POST', `/api/v1/item/${fill.itemId}/score`, {
        project: bench.projectId,
        body: { responses: { G1: 'Na', G2: 'fe' } },
      });
      expect(right.json()).toMatchObject({ score: 1, outcome: 'correct' });
      const errors = await call(app, bench.author, 'GET', `/api/v1/item/import/${job.jobId}/errors`, { project: bench.projectId });
      const errorBook = new ExcelJS.Workbook();
      await errorBook.xlsx.load(errors.rawPayload as never);
      expect(errorBook.worksheets[0].rowCount).toBe(3);
    });
  },
  { runJobs: true },
);
