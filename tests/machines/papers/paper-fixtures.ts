import type { ItemContent } from '#machines/items/item-schema.ts';
import { DIFFICULTIES, type Difficulty, type PaperItem, type PaperSpec, type SectionSpec } from '#machines/papers/paper-records.ts';

/** Builders of items and papers for the papers tests (not a copy of the code under test). */
export function choiceItem(index: number, options: Array<boolean>, languages: string[] = ['en', 'hi'], shuffle = true): ItemContent {
  const ids = options.map((_, i) => `o${i + 1}`);
  return {
    kind: 'singleChoice',
    variants: Object.fromEntries(
      languages.map((l) => [l, { stem: `<p>Q${index} ${l}</p>`, choices: Object.fromEntries(ids.map((id) => [id, `${id} ${l}`])) }]),
    ),
    marking: { correct: 1, wrong: 0, unanswered: 0 },
    media: [],
    options: ids.map((id, i) => ({ id, keepLast: options[i] })),
    correct: ids[0],
    shuffle,
  };
}

export function matchingItem(index: number, size: number): ItemContent {
  const left = Array.from({ length: size }, (_, i) => ({ id: `l${i}`, keepLast: false }));
  const right = Array.from({ length: size }, (_, i) => ({ id: `r${i}`, keepLast: i === size - 1 }));
  return {
    kind: 'matching',
    variants: { en: { stem: `<p>Match ${index}</p>` } },
    marking: { correct: 2, wrong: 0, unanswered: 0 },
    media: [],
    left,
    right,
    pairs: left.map((l, i) => ({ left: l.id, right: right[i].id })),
    shuffle: true,
    partial: null,
  };
}

export function numericItem(index: number): ItemContent {
  return {
    kind: 'numeric',
    variants: { en: { stem: `<p>N${index}</p>` }, hi: { stem: `<p>N${index} hi</p>` } },
    marking: { correct: 1, wrong: 0, unanswered: 0 },
    media: [],
    answer: index,
    tolerance: { mode: 'absolute', value: 0 },
  };
}

export function paperItem(index: number, over: Partial<PaperItem> = {}): PaperItem {
  return {
    versionId: `v${index}`,
    itemId: `i${index}`,
    categoryId: `c${index % 3}`,
    difficulty: DIFFICULTIES[index % 3],
    approved: true,
    content: choiceItem(index, [false, false, false, index % 2 === 0]),
    ...over,
  };
}

export function section(id: string, order: number, rule: SectionSpec['rule'], over: Partial<SectionSpec> = {}): SectionSpec {
  return { id, order, title: `Section ${id}`, marksPerItem: 1, attemptAny: null, shuffleItems: true, shuffleOptions: true, rule, ...over };
}

export function paper(sections: SectionSpec[], totalMarks: number, languages = ['en', 'hi']): PaperSpec {
  return { totalMarks, languages, sections };
}

export const cell = (categoryId: string, difficulty: Difficulty, count: number) => ({ categoryId, difficulty, count });
