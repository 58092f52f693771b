import ExcelJS from 'exceljs';
import { COGNITIVE_LEVELS, DIFFICULTIES } from '#machines/items/item-records.ts';
import { ITEM_KINDS, type ItemContent, type ItemKind, type Variant } from '#machines/items/item-schema.ts';

/**
 * The .xlsx template of the item bulk import (docs/decisions/0124): one row per item, a stem and
 * an options cell per language (`stem_en`, `options_en`, `stem_hi`, …; one option per line).
 * - singleChoice: answer = the letter of the correct option (A, B, …);
 * - multipleChoice: answer = letters separated by commas (all or nothing);
 * - trueFalse: answer = true or false;
 * - numeric: answer = the number, tolerance = ± absolute;
 * - shortText: answer = accepted answers separated by |, caseSensitive = yes/no;
 * - fillInBlanks: gaps in the stem as [[answer|other answer]] (the answers of the first language
 *   count; the other languages place their gaps in the same order);
 * - matching: options = one "left = right" pair per line;
 * - ordering: options in the correct order;
 * - essay: wordLimit.
 * marks (default 1) is the mark for a correct answer, negativeMarks (default 0) what a wrong one
 * costs.
 */
export const XLSX_COLUMNS = [
  'code',
  'kind',
  'difficulty',
  'cognitivelevel',
  'marks',
  'negativemarks',
  'answer',
  'tolerance',
  'casesensitive',
  'wordlimit',
] as const;

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const paragraph = (text: string) => `<p>${escapeHtml(text.trim())}</p>`;
const lines = (cell: string | undefined) =>
  (cell ?? '')
    .split(/\r?\n|\s\|\s/)
    .map((l) => l.trim())
    .filter(Boolean);

export interface ParsedRow {
  code: string | null;
  difficulty: string;
  cognitiveLevel: string | null;
  content: ItemContent;
}

/** One row → item content (not yet sanitized or checked: the import does that), or the reasons it was refused. */
export function rowToItem(cells: Record<string, string>, projectLanguages: readonly string[]): ParsedRow | { reasons: string[] } {
  const reasons: string[] = [];
  const kind = ITEM_KINDS.find((k) => k.toLowerCase() === (cells.kind ?? '').trim().toLowerCase()) as ItemKind | undefined;
  if (!kind) return { reasons: [`kind "${cells.kind ?? ''}" is not one of ${ITEM_KINDS.join(', ')}.`] };
  const difficulty = (cells.difficulty || 'medium').trim().toLowerCase();
  if (!(DIFFICULTIES as readonly string[]).includes(difficulty)) reasons.push(`difficulty must be ${DIFFICULTIES.join(', ')}.`);
  const cognitive = (cells.cognitivelevel ?? '').trim().toLowerCase() || null;
  if (cognitive && !(COGNITIVE_LEVELS as readonly string[]).includes(cognitive)) reasons.push(`cognitiveLevel must be one of ${COGNITIVE_LEVELS.join(', ')}.`);
  const marks = cells.marks?.trim() ? Number(cells.marks) : 1;
  const negative = cells.negativemarks?.trim() ? Math.abs(Number(cells.negativemarks)) : 0;
  if (!Number.isFinite(marks) || marks <= 0) reasons.push('marks must be a number above 0.');
  if (!Number.isFinite(negative)) reasons.push('negativeMarks must be a number.');
  const languages = Object.keys(cells)
    .filter((k) => k.startsWith('stem_') && cells[k].trim())
    .map((k) => k.slice(5))
    .sort((a, b) => rank(a, projectLanguages) - rank(b, projectLanguages));
  if (!languages.length) reasons.push('Write the stem in at least one language (stem_en, stem_hi, …).');
  if (reasons.length) return { reasons };
  const marking = { correct: marks, wrong: kind === 'essay' ? 0 : -negative, unanswered: 0 };
  const answer = (cells.answer ?? '').trim();
  const common = { marking, media: [] };
  const optionVariants = (ids: string[], texts: (lang: string) => string[]) =>
    Object.fromEntries(
      languages.map((lang) => [
        lang,
        { stem: paragraph(cells[`stem_${lang}`]), choices: Object.fromEntries(ids.map((id, i) => [id, escapeHtml(texts(lang)[i] ?? '')])) } satisfies Variant,
      ]),
    );
  const plainVariants = () => Object.fromEntries(languages.map((lang) => [lang, { stem: paragraph(cells[`stem_${lang}`]) } satisfies Variant]));
  const first = languages[0];
  const letterIndex = (letter: string) => LETTERS.indexOf(letter.trim().toUpperCase());

  switch (kind) {
    case 'singleChoice':
    case 'multipleChoice':
    case 'ordering': {
      const options = lines(cells[`options_${first}`]);
      if (options.length < 2) return { reasons: [`options_${first} needs at least two options, one per line.`] };
      for (const lang of languages)
        if (lines(cells[`options_${lang}`]).length !== options.length)
          reasons.push(`options_${lang} must list ${options.length} options like options_${first}.`);
      const ids = options.map((_, i) => LETTERS[i]);
      const variants = optionVariants(ids, (lang) => lines(cells[`options_${lang}`]));
      const choices = ids.map((id) => ({ id, keepLast: false }));
      if (kind === 'ordering')
        return done(reasons, cells, difficulty, cognitive, { kind, ...common, variants, options: choices, correctOrder: ids, shuffle: true });
      const picked = answer
        .split(/[,;\s]+/)
        .filter(Boolean)
        .map(letterIndex);
      if (!picked.length || picked.some((i) => i < 0 || i >= ids.length))
        return { reasons: [`answer must be the letter(s) of the correct option(s), A to ${ids[ids.length - 1]}.`] };
      if (kind === 'singleChoice') {
        if (picked.length !== 1) return { reasons: ['A single choice item has exactly one correct option.'] };
        return done(reasons, cells, difficulty, cognitive, { kind, ...common, variants, options: choices, correct: ids[picked[0]], shuffle: false });
      }
      return done(reasons, cells, difficulty, cognitive, {
        kind,
        ...common,
        variants,
        options: choices,
        correct: [...new Set(picked)].map((i) => ids[i]),
        minChoices: 0,
        maxChoices: 0,
        shuffle: false,
        partial: null,
      });
    }
    case 'trueFalse': {
      const value = answer.toLowerCase();
      if (!['true', 'false', 't', 'f', 'yes', 'no'].includes(value)) return { reasons: ['answer must be true or false.'] };
      return done(reasons, cells, difficulty, cognitive, { kind, ...common, variants: plainVariants(), correct: ['true', 't', 'yes'].includes(value) });
    }
    case 'numeric': {
      const value = Number(answer);
      const tolerance = cells.tolerance?.trim() ? Number(cells.tolerance) : 0;
      if (!answer || !Number.isFinite(value)) return { reasons: ['answer must be a number.'] };
      if (!Number.isFinite(tolerance) || tolerance < 0) return { reasons: ['tolerance must be a number ≥ 0.'] };
      return done(reasons, cells, difficulty, cognitive, {
        kind,
        ...common,
        variants: plainVariants(),
        answer: value,
        tolerance: { mode: 'absolute', value: tolerance },
      });
    }
    case 'shortText': {
      const accepted = answer
        .split('|')
        .map((a) => a.trim())
        .filter(Boolean);
      if (!accepted.length) return { reasons: ['answer must list the accepted answers, separated by |.'] };
      const caseSensitive = /^(yes|true|y|1)$/i.test(cells.casesensitive?.trim() ?? '');
      return done(reasons, cells, difficulty, cognitive, {
        kind,
        ...common,
        variants: plainVariants(),
        answers: accepted.map((text) => ({ text, caseSensitive, credit: 1 })),
        expectedLength: Math.min(500, Math.max(10, ...accepted.map((a) => a.length))),
      });
    }
    case 'fillInBlanks': {
      const gapPattern = /\[\[([^\]]*)\]\]/g;
      const answers = [...cells[`stem_${first}`].matchAll(gapPattern)].map((m) =>
        m[1]
          .split('|')
          .map((a) => a.trim())
          .filter(Boolean),
      );
      if (!answers.length || answers.some((a) => !a.length)) return { reasons: [`Write each gap of stem_${first} as [[answer|other answer]].`] };
      const ids = answers.map((_, i) => `G${i + 1}`);
      const variants: Record<string, Variant> = {};
      for (const lang of languages) {
        const stem = cells[`stem_${lang}`];
        const count = [...stem.matchAll(gapPattern)].length;
        if (count !== ids.length) reasons.push(`stem_${lang} has ${count} gaps; stem_${first} has ${ids.length}.`);
        let n = 0;
        const html = escapeHtml(stem.trim()).replace(/\[\[([^\]]*)\]\]/g, () => `<span data-gap="${ids[n++] ?? 'G0'}"></span>`);
        variants[lang] = { stem: `<p>${html}</p>` };
      }
      const caseSensitive = /^(yes|true|y|1)$/i.test(cells.casesensitive?.trim() ?? '');
      return done(reasons, cells, difficulty, cognitive, {
        kind,
        ...common,
        variants,
        gaps: ids.map((id, i) => ({ id, answers: answers[i].map((text) => ({ text, caseSensitive })), expectedLength: 20 })),
        partial: null,
      });
    }
    case 'matching': {
      const pairs = lines(cells[`options_${first}`]).map((l) => l.split('='));
      if (pairs.length < 1 || pairs.some((p) => p.length !== 2 || !p[0].trim() || !p[1].trim()))
        return { reasons: [`options_${first} needs one "left = right" pair per line.`] };
      const left = pairs.map((_, i) => `L${i + 1}`);
      const right = pairs.map((_, i) => `R${i + 1}`);
      const variants: Record<string, Variant> = {};
      for (const lang of languages) {
        const own = lines(cells[`options_${lang}`]).map((l) => l.split('='));
        if (own.length !== pairs.length || own.some((p) => p.length !== 2))
          reasons.push(`options_${lang} must list ${pairs.length} "left = right" pairs like options_${first}.`);
        variants[lang] = {
          stem: paragraph(cells[`stem_${lang}`]),
          choices: Object.fromEntries([
            ...left.map((id, i) => [id, escapeHtml(own[i]?.[0]?.trim() ?? '')]),
            ...right.map((id, i) => [id, escapeHtml(own[i]?.[1]?.trim() ?? '')]),
          ]),
        };
      }
      return done(reasons, cells, difficulty, cognitive, {
        kind,
        ...common,
        variants,
        left: left.map((id) => ({ id, keepLast: false })),
        right: right.map((id) => ({ id, keepLast: false })),
        pairs: left.map((l, i) => ({ left: l, right: right[i] })),
        shuffle: true,
        partial: null,
      });
    }
    case 'essay': {
      const limit = cells.wordlimit?.trim() ? Number(cells.wordlimit) : null;
      if (limit !== null && (!Number.isInteger(limit) || limit < 1)) return { reasons: ['wordLimit must be a whole number above 0.'] };
      return done(reasons, cells, difficulty, cognitive, { kind, ...common, variants: plainVariants(), wordLimit: limit });
    }
  }
}

function rank(lang: string, projectLanguages: readonly string[]) {
  const i = projectLanguages.indexOf(lang);
  return i < 0 ? 100 + lang.charCodeAt(0) : i;
}

function done(
  reasons: string[],
  cells: Record<string, string>,
  difficulty: string,
  cognitiveLevel: string | null,
  content: ItemContent,
): ParsedRow | { reasons: string[] } {
  if (reasons.length) return { reasons };
  return { code: cells.code?.trim() || null, difficulty, cognitiveLevel, content };
}

/** The template: the columns for the project's languages and one example row per kind. */
export async function buildItemTemplate(languages: readonly string[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Exam Portal';
  const sheet = workbook.addWorksheet('Items');
  const langColumns = languages.flatMap((lang) => [`stem_${lang}`, `options_${lang}`]);
  const headers = [
    'code',
    'kind',
    'difficulty',
    'cognitiveLevel',
    'marks',
    'negativeMarks',
    'answer',
    'tolerance',
    'caseSensitive',
    'wordLimit',
    ...langColumns,
  ];
  sheet.columns = headers.map((key) => ({ header: key, key, width: key.startsWith('stem_') || key.startsWith('options_') ? 40 : 14 }));
  sheet.getRow(1).font = { bold: true };
  const en = (stem: string, options = '') => ({ stem_en: stem, options_en: options });
  const examples: Array<Record<string, string | number>> = [
    {
      kind: 'singleChoice',
      difficulty: 'easy',
      marks: 4,
      negativeMarks: 1,
      answer: 'B',
      ...en('Which planet is closest to the Sun?', 'Venus\nMercury\nEarth\nMars'),
    },
    { kind: 'multipleChoice', difficulty: 'medium', marks: 2, answer: 'A, C', ...en('Which of these are prime numbers?', '2\n4\n7\n9') },
    { kind: 'trueFalse', difficulty: 'easy', answer: 'true', ...en('Water boils at 100 °C at sea level.') },
    { kind: 'numeric', difficulty: 'medium', marks: 2, answer: 9.8, tolerance: 0.1, ...en('Acceleration due to gravity in m/s²?') },
    { kind: 'shortText', difficulty: 'easy', answer: 'Delhi | New Delhi', caseSensitive: 'no', ...en('The capital of India is …') },
    { kind: 'fillInBlanks', difficulty: 'easy', answer: '', ...en('The chemical symbol of sodium is [[Na]] and of iron is [[Fe]].') },
    { kind: 'matching', difficulty: 'medium', marks: 4, ...en('Match the inventor with the invention.', 'Edison = Light bulb\nBell = Telephone') },
    { kind: 'ordering', difficulty: 'hard', marks: 2, ...en('Order from smallest to largest.', 'Atom\nCell\nOrgan') },
    { kind: 'essay', difficulty: 'hard', marks: 5, wordLimit: 250, ...en('Explain photosynthesis.') },
  ];
  for (const example of examples) sheet.addRow(example);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
