import type { Choice, ItemContent, ItemKind, ItemOf, Marking, Variant } from './item-schema.ts';

/**
 * The editor's edits of item content (docs/decisions/0127): pure functions from one item to the
 * next, so the editor's actor stays a plain reducer and every rule (ids, keys that follow their
 * options, every language having every option text) is tested without a browser. Each returns a
 * new object; the scorer caches per object, so the preview rescored after every edit.
 */

export const DEFAULT_MARKING: Marking = { correct: 1, wrong: 0, unanswered: 0 };

const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The next free id: A, B, … then X27 for options; with a prefix, G1, G2 … / L1, R1 … (QTI identifiers; never reused while present). */
export function nextId(taken: readonly string[], prefix = ''): string {
  const used = new Set(taken);
  if (prefix) for (let n = 1; ; n++) if (!used.has(`${prefix}${n}`)) return `${prefix}${n}`;
  for (const letter of letters) if (!used.has(letter)) return letter;
  for (let n = 27; ; n++) if (!used.has(`X${n}`)) return `X${n}`;
}

function emptyVariant(kind: ItemKind, choiceIds: string[]): Variant {
  const variant: Variant = { stem: '' };
  if (choiceIds.length) variant.choices = Object.fromEntries(choiceIds.map((id) => [id, '']));
  if (kind === 'essay') variant.rubric = '';
  return variant;
}

/** A new item of a kind with the languages given (first one the author's), ready to fill in. */
export function blankItem(kind: ItemKind, languages: readonly string[], marking: Marking = DEFAULT_MARKING): ItemContent {
  const options: Choice[] = ['A', 'B', 'C', 'D'].map((id) => ({ id, keepLast: false }));
  const base = { marking: { ...marking }, media: [] };
  const variantsFor = (ids: string[]) => Object.fromEntries(languages.map((lang) => [lang, emptyVariant(kind, ids)]));
  const ids = options.map((o) => o.id);
  switch (kind) {
    case 'singleChoice':
      return { kind, ...base, variants: variantsFor(ids), options, correct: 'A', shuffle: true };
    case 'multipleChoice':
      return { kind, ...base, variants: variantsFor(ids), options, correct: ['A'], minChoices: 0, maxChoices: 0, shuffle: true, partial: null };
    case 'trueFalse':
      return { kind, ...base, variants: variantsFor([]), correct: true };
    case 'numeric':
      return { kind, ...base, variants: variantsFor([]), answer: 0, tolerance: { mode: 'absolute', value: 0 } };
    case 'shortText':
      return { kind, ...base, variants: variantsFor([]), answers: [{ text: 'answer', caseSensitive: false, credit: 1 }], expectedLength: 20 };
    case 'fillInBlanks':
      return {
        kind,
        ...base,
        variants: Object.fromEntries(languages.map((lang) => [lang, { stem: '<p><span data-gap="G1"></span></p>' }])),
        gaps: [{ id: 'G1', answers: [{ text: 'answer', caseSensitive: false }], expectedLength: 10 }],
        partial: null,
      };
    case 'matching': {
      const left = [
        { id: 'L1', keepLast: false },
        { id: 'L2', keepLast: false },
      ];
      const right = [
        { id: 'R1', keepLast: false },
        { id: 'R2', keepLast: false },
      ];
      return {
        kind,
        ...base,
        variants: variantsFor([...left, ...right].map((c) => c.id)),
        left,
        right,
        pairs: [
          { left: 'L1', right: 'R1' },
          { left: 'L2', right: 'R2' },
        ],
        shuffle: true,
        partial: null,
      };
    }
    case 'ordering':
      return { kind, ...base, variants: variantsFor(ids), options, correctOrder: [...ids], shuffle: true };
    case 'essay':
      return { kind, ...base, marking: { ...base.marking, wrong: 0 }, variants: variantsFor([]), wordLimit: 300 };
  }
}

/** The option lists of an item a language's `choices` must cover, in order. */
export function choiceLists(item: ItemContent): Choice[][] {
  switch (item.kind) {
    case 'singleChoice':
    case 'multipleChoice':
    case 'ordering':
      return [item.options];
    case 'matching':
      return [item.left, item.right];
    default:
      return [];
  }
}

const allChoiceIds = (item: ItemContent) =>
  choiceLists(item)
    .flat()
    .map((c) => c.id);

/** A rich field of a language: the stem, an option's text, or the essay's rubric. */
export type TextField = { stem: string } | { choice: string; html: string } | { rubric: string };

/** Sets the stem, an option text or the rubric of one language. */
export function setText(item: ItemContent, language: string, field: TextField): ItemContent {
  const current = item.variants[language];
  if (!current) return item;
  const variant: Variant = { ...current };
  if ('stem' in field) variant.stem = field.stem;
  else if ('rubric' in field) variant.rubric = field.rubric;
  else variant.choices = { ...(variant.choices ?? {}), [field.choice]: field.html };
  return { ...item, variants: { ...item.variants, [language]: variant } };
}

/** Adds a language variant (empty texts for every option), or leaves the item as it is. */
export function addVariant(item: ItemContent, language: string): ItemContent {
  if (item.variants[language]) return item;
  const ids = allChoiceIds(item);
  const stem = item.kind === 'fillInBlanks' ? `<p>${item.gaps.map((g) => `<span data-gap="${g.id}"></span>`).join(' ')}</p>` : '';
  return { ...item, variants: { ...item.variants, [language]: { ...emptyVariant(item.kind, ids), stem } } };
}

export function removeVariant(item: ItemContent, language: string): ItemContent {
  if (!item.variants[language] || Object.keys(item.variants).length <= 1) return item;
  const variants = { ...item.variants };
  delete variants[language];
  return { ...item, variants };
}

function mapVariants(item: ItemContent, change: (variant: Variant) => Variant): ItemContent['variants'] {
  return Object.fromEntries(Object.entries(item.variants).map(([lang, variant]) => [lang, change(variant)]));
}

type ChoiceList = 'options' | 'left' | 'right';

function listOf(item: ItemContent, list: ChoiceList): Choice[] | null {
  if (list === 'options' && (item.kind === 'singleChoice' || item.kind === 'multipleChoice' || item.kind === 'ordering')) return item.options;
  if (item.kind === 'matching' && (list === 'left' || list === 'right')) return item[list];
  return null;
}

/** Adds an option (or a matching member) with an empty text in every language; keeps `keepLast` options at the end. */
export function addChoice(item: ItemContent, list: ChoiceList = 'options'): ItemContent {
  const choices = listOf(item, list);
  if (!choices) return item;
  const id = nextId(allChoiceIds(item), list === 'left' ? 'L' : list === 'right' ? 'R' : '');
  const fixedAt = choices.findIndex((c) => c.keepLast);
  const next = [...choices];
  next.splice(fixedAt < 0 ? next.length : fixedAt, 0, { id, keepLast: false });
  const variants = mapVariants(item, (v) => ({ ...v, choices: { ...(v.choices ?? {}), [id]: '' } }));
  const updated = { ...item, variants, [list]: next } as ItemContent;
  return updated.kind === 'ordering' ? { ...updated, correctOrder: [...updated.correctOrder, id] } : updated;
}

/** Removes an option and everything that points at it (key, pairs, order, texts). Keeps at least two options. */
export function removeChoice(item: ItemContent, id: string, list: ChoiceList = 'options'): ItemContent {
  const choices = listOf(item, list);
  if (!choices || !choices.some((c) => c.id === id) || choices.length <= (item.kind === 'matching' ? 1 : 2)) return item;
  const variants = mapVariants(item, (v) => {
    const texts = { ...(v.choices ?? {}) };
    delete texts[id];
    return { ...v, choices: texts };
  });
  const rest = choices.filter((c) => c.id !== id);
  switch (item.kind) {
    case 'singleChoice':
      return { ...item, variants, options: rest, correct: item.correct === id ? rest[0].id : item.correct };
    case 'multipleChoice': {
      const correct = item.correct.filter((c) => c !== id);
      return { ...item, variants, options: rest, correct: correct.length ? correct : [rest[0].id] };
    }
    case 'ordering':
      return { ...item, variants, options: rest, correctOrder: item.correctOrder.filter((c) => c !== id) };
    case 'matching': {
      const pairs = item.pairs.filter((p) => p.left !== id && p.right !== id);
      const next = { ...item, variants, [list]: rest } as ItemOf<'matching'>;
      return { ...next, pairs: pairs.length ? pairs : [{ left: next.left[0].id, right: next.right[0].id }] };
    }
    default:
      return item;
  }
}

/** Marks an option correct (single choice: the one; multiple choice: toggles it, never leaving none). */
export function toggleCorrect(item: ItemContent, id: string): ItemContent {
  if (item.kind === 'singleChoice') return { ...item, correct: id };
  if (item.kind === 'multipleChoice') {
    const has = item.correct.includes(id);
    if (has && item.correct.length === 1) return item;
    const correct = has ? item.correct.filter((c) => c !== id) : item.options.map((o) => o.id).filter((o) => o === id || item.correct.includes(o));
    return { ...item, correct };
  }
  return item;
}

/** Moves an entry of a list one place up (-1) or down (+1). */
export function move<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  if (index < 0 || index >= list.length || to < 0 || to >= list.length) return [...list];
  const next = [...list];
  [next[index], next[to]] = [next[to], next[index]];
  return next;
}

/** Toggles "keep last" on an option and moves it to the end (or back before the kept ones). */
export function toggleKeepLast(item: ItemContent, id: string): ItemContent {
  if (item.kind !== 'singleChoice' && item.kind !== 'multipleChoice') return item;
  const option = item.options.find((o) => o.id === id);
  if (!option) return item;
  const others = item.options.filter((o) => o.id !== id);
  const changed = { ...option, keepLast: !option.keepLast };
  const free = others.filter((o) => !o.keepLast);
  const kept = others.filter((o) => o.keepLast);
  return { ...item, options: changed.keepLast ? [...free, ...kept, changed] : [...free, changed, ...kept] };
}

/** A matching pair on or off. */
export function togglePair(item: ItemContent, left: string, right: string): ItemContent {
  if (item.kind !== 'matching') return item;
  const has = item.pairs.some((p) => p.left === left && p.right === right);
  if (has && item.pairs.length === 1) return item;
  const pairs = has ? item.pairs.filter((p) => !(p.left === left && p.right === right)) : [...item.pairs, { left, right }];
  return { ...item, pairs };
}

/** Adds a gap: its answer row and a placeholder at the end of every language's stem. */
export function addGap(item: ItemContent): ItemContent {
  if (item.kind !== 'fillInBlanks') return item;
  const id = nextId(
    item.gaps.map((g) => g.id),
    'G',
  );
  const placeholder = `<span data-gap="${id}"></span>`;
  const variants = mapVariants(item, (v) => ({
    ...v,
    stem: v.stem.endsWith('</p>') ? `${v.stem.slice(0, -4)} ${placeholder}</p>` : `${v.stem}<p>${placeholder}</p>`,
  }));
  return { ...item, variants, gaps: [...item.gaps, { id, answers: [{ text: 'answer', caseSensitive: false }], expectedLength: 10 }] };
}

/** Removes a gap and its placeholder from every language. Keeps at least one. */
export function removeGap(item: ItemContent, id: string): ItemContent {
  if (item.kind !== 'fillInBlanks' || item.gaps.length <= 1) return item;
  const placeholder = new RegExp(`\\s?<span\\b[^>]*\\bdata-gap="${id.replace(/[.]/g, '\\.')}"[^>]*>\\s*</span>`, 'g');
  const variants = mapVariants(item, (v) => ({ ...v, stem: v.stem.replace(placeholder, '') }));
  return { ...item, variants, gaps: item.gaps.filter((g) => g.id !== id) };
}

/** The languages to show side by side: the project's, then any other the item has. */
export function languagesToShow(item: ItemContent, projectLanguages: readonly string[]): { language: string; present: boolean }[] {
  const all = [...projectLanguages, ...Object.keys(item.variants).filter((l) => !projectLanguages.includes(l))];
  return all.map((language) => ({ language, present: Boolean(item.variants[language]) }));
}

/** Changes the kind, keeping the stems, the marking and what the new kind can use of the options. */
export function changeKind(item: ItemContent, kind: ItemKind): ItemContent {
  if (item.kind === kind) return item;
  const languages = Object.keys(item.variants);
  // blankItem gives an essay no marks for wrong itself.
  const fresh = blankItem(kind, languages, item.marking);
  const variants = Object.fromEntries(
    languages.map((lang) => {
      const blank = fresh.variants[lang];
      // A new kind's stem is empty except fill-in-the-blanks' gap, which goes after the kept stem.
      return [lang, { ...blank, stem: `${item.variants[lang].stem}${blank.stem}` }];
    }),
  );
  return { ...fresh, media: item.media, variants } as ItemContent;
}
