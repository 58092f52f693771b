import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { answerKeyHtml, answerOf, questionPaperHtml, type PrintInput } from '#server/modules/papers/paper-print.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { cleanPaper, mcq, paperCall, paperWorld, sendPaperEvent, type PaperWorld } from './papers-kit.ts';

const outDir = path.resolve(import.meta.dirname, '../../../test-results/papers');
const pageCount = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/g) ?? []).length;

describe('printed set HTML', () => {
  const content = mcq(1, ['en', 'hi']);
  const snapshotItems = { v1: content, v2: mcq(2, ['en']) };
  const set = {
    letter: 'C',
    seed: 's',
    sections: [
      {
        sectionId: '1',
        items: [
          {
            number: 1,
            versionId: 'v1',
            itemId: 'i1',
            categoryId: 'c',
            difficulty: 'easy' as const,
            marks: 2,
            options: ['C', 'A', 'B', 'D'],
            left: null,
            right: null,
          },
          {
            number: 2,
            versionId: 'v2',
            itemId: 'i2',
            categoryId: 'c',
            difficulty: 'easy' as const,
            marks: 2,
            options: ['B', 'C', 'A', 'D'],
            left: null,
            right: null,
          },
        ],
      },
    ],
  };
  const input: PrintInput = {
    paper: {
      code: 'MATH-1',
      title: 'Mathematics <I>',
      examName: 'Board 2027',
      durationMinutes: 90,
      totalMarks: 4,
      instructions: { en: 'Answer all.', hi: 'सभी प्रश्न अनिवार्य हैं।' },
      calculator: false,
    },
    sections: [{ sectionId: '1', title: 'Section A', instructions: {}, attemptAny: 1, timeLimitMinutes: null, marksPerItem: 2 }],
    set,
    items: snapshotItems,
    languages: ['en', 'hi'],
  };

  it('should print both languages, the set letter, the roll-number box, escape titles and say which variant is missing', () => {
    const html = questionPaperHtml(input);
    expect(html).toContain('Mathematics &lt;I&gt;');
    expect(html).toContain('<div class="set-letter" aria-label="Set C">C</div>');
    expect(html.match(/<div class="boxes">(.*?)<\/div>/)![1]).toBe('<span></span>'.repeat(10));
    expect(html).toContain('<div class="stem alt" lang="hi"><p>प्रश्न 1</p></div>');
    expect(html).toContain('(इस भाषा में उपलब्ध नहीं)');
    expect(html).toContain('Attempt any 1 of 2');
    // Options in the set's order, labelled by position.
    expect(html).toMatch(/<b>\(A\)<\/b><div><span lang="en">Option C<\/span> \/ <span lang="hi">विकल्प C<\/span>/);
    expect(html).not.toMatch(/<script|https?:\/\//);
  });

  it('should print an option that reads the same in both languages once, true/false and a section’s time limit in both languages', () => {
    const numeric = mcq(3, ['en', 'hi']);
    numeric.variants.en.choices = { A: '<p>17</p>', B: 'x² − 4', C: 'None of these', D: 'All of the above' };
    numeric.variants.hi.choices = { A: '17', B: 'x² − 4', C: 'इनमें से कोई नहीं', D: 'उपरोक्त सभी' };
    const truth = { ...mcq(4, ['en', 'hi']), kind: 'trueFalse', correct: true } as unknown as PrintInput['items'][string];
    const item = set.sections[0].items[0];
    const html = questionPaperHtml({
      ...input,
      sections: [{ ...input.sections[0], timeLimitMinutes: 20 }],
      set: {
        ...set,
        sections: [
          {
            sectionId: '1',
            items: [
              { ...item, versionId: 'n', options: ['A', 'B', 'C', 'D'] },
              { ...item, number: 2, versionId: 't', options: null },
            ],
          },
        ],
      },
      items: { n: numeric, t: truth },
    });
    expect(html).toContain('<b>(A)</b><div><span lang="en">17</span></div>');
    expect(html).toContain('<b>(B)</b><div><span lang="en">x² − 4</span></div>');
    expect(html).toContain('<span lang="en">None of these</span> / <span lang="hi">इनमें से कोई नहीं</span>');
    expect(html).toContain('<b>(A)</b><div><span lang="en">True</span> / <span lang="hi">सत्य</span></div>');
    expect(html).toContain('<b>(B)</b><div><span lang="en">False</span> / <span lang="hi">असत्य</span></div>');
    expect(html).toContain('<span lang="en">Time limit for this section: 20 minutes</span> / <span lang="hi">इस खंड की समय सीमा: 20 मिनट</span>');
  });

  it('should key each answer by the label the option has in this set', () => {
    expect(answerOf(set.sections[0].items[0], content)).toBe('B'); // A is second in C, A, B, D
    expect(answerOf(set.sections[0].items[1], snapshotItems.v2)).toBe('C');
    expect(answerKeyHtml(input)).toContain('<tr><td>1</td><td>B</td><td>2</td></tr>');
  });
});

describeEachDatabase('printed sets over HTTP', (get) => {
  let world: PaperWorld;
  let paperId: number;
  beforeAll(async () => {
    const { app, db } = get();
    world = await paperWorld(app);
    ({
      paper: { paperId },
    } = await cleanPaper(app, db, world));
    await paperCall(app, world, world.setter, 'PUT', `/api/v1/paper/${paperId}`, {
      instructions: {
        en: 'All questions are compulsory.\nUse a blue or black pen.',
        hi: 'सभी प्रश्न अनिवार्य हैं।\nनीले या काले पेन का प्रयोग करें। क्षेत्रफल, त्रिभुज, द्विघात समीकरण।',
      },
      version: 3,
    });
    await sendPaperEvent(app, world, world.setter, paperId, 'paper.submit');
    await sendPaperEvent(app, world, world.moderator, paperId, 'paper.lock');
    await paperCall(app, world, world.setter, 'POST', `/api/v1/paper/${paperId}/sets`, { count: 4 });
  }, 120_000);

  it('should print set C in English and Hindi as a PDF with the Devanagari font embedded, and its answer key', async () => {
    const { app, kind } = get();
    const started = performance.now();
    const res = await paperCall(app, world, world.setter, 'GET', `/api/v1/paper/${paperId}/sets/C/pdf?languages=en,hi`);
    const ms = performance.now() - started;
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename=".*-set-C-en-hi\.pdf"$/);
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pageCount(pdf)).toBeGreaterThanOrEqual(2); // the cover, then the questions
    expect(pdf.toString('latin1')).toMatch(/NotoSansDevanagari/);
    const key = await paperCall(app, world, world.setter, 'GET', `/api/v1/paper/${paperId}/sets/C/pdf?part=key`);
    expect(key.statusCode).toBe(200);
    expect(key.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    await mkdir(outDir, { recursive: true });
    await writeFile(path.join(outDir, `set-C-en-hi.${kind}.pdf`), pdf);
    await writeFile(path.join(outDir, `set-C-key.${kind}.pdf`), key.rawPayload);
    console.log(
      `[papers] PDF of a 20-item bilingual set: ${(pdf.length / 1024).toFixed(0)} KiB, ${pageCount(pdf)} pages, ${ms.toFixed(0)} ms (first print launches Chromium)`,
    );
  }, 60_000);

  it('should refuse a language outside the project, a set that does not exist, and unknown query fields', async () => {
    const { app } = get();
    const gu = await paperCall(app, world, world.setter, 'GET', `/api/v1/paper/${paperId}/sets/C/pdf?languages=en,gu`);
    expect(gu.statusCode).toBe(400);
    expect(gu.json().errors).toEqual({ languages: ["The project's content languages are en, hi; gu is not one of them."] });
    expect((await paperCall(app, world, world.setter, 'GET', `/api/v1/paper/${paperId}/sets/Q/pdf`)).statusCode).toBe(404);
    expect((await paperCall(app, world, world.setter, 'GET', `/api/v1/paper/${paperId}/sets/C/pdf?languages=de`)).statusCode).toBe(400);
  });
});
