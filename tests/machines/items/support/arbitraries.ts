import fc from 'fast-check';
import type { Choice, ItemContent, ItemResponse, Marking, PartialCredit, Variant } from '#machines/items/item-schema.ts';

/**
 * fast-check arbitraries of valid item content of every kind (with one to three language
 * variants, media, partial credit, negative marks) and of responses to them, including wrong,
 * empty and odd ones.
 */
const LANGS = ['en', 'hi', 'gu'] as const;
const WORDS = ['Paris', 'पेरिस', 'અમદાવાદ', 'oxygen', 'H₂O', 'Ça va', 'x²', 'York', 'york', 'ELEVEN', 'twelve', 'Δ'];

const html = fc.constantFrom(
  '<p>What is it?</p>',
  '<p>Pick <b>one</b>.</p>',
  '<p>सही उत्तर चुनें।</p>',
  '<p>x<sup>2</sup> = 4</p>',
  '<ul><li>a</li><li>b</li></ul>',
);
const marks = (min: number, max: number) => fc.integer({ min: min * 4, max: max * 4 }).map((n) => n / 4);
const marking: fc.Arbitrary<Marking> = fc.record({ correct: marks(0.25, 10), wrong: marks(-4, 0), unanswered: fc.constantFrom(0, 0, -0.5) });
const partial: fc.Arbitrary<PartialCredit | null> = fc.option(fc.record({ perCorrect: marks(0, 4), perWrong: marks(-2, 0), wrongCancels: fc.boolean() }), {
  nil: null,
});

const idsOf = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

function choices(ids: string[], keepLastCount: number): Choice[] {
  return ids.map((id, i) => ({ id, keepLast: i >= ids.length - keepLastCount }));
}

function variants(languages: string[], stem: (lang: string) => string, choiceIds: string[] = [], extra: Partial<Variant> = {}) {
  return Object.fromEntries(
    languages.map((lang) => [
      lang,
      {
        stem: stem(lang),
        ...(choiceIds.length ? { choices: Object.fromEntries(choiceIds.map((id) => [id, `${lang} ${id}`])) } : {}),
        ...extra,
      },
    ]),
  );
}

const languages = fc.subarray([...LANGS], { minLength: 1 });
const media = fc.boolean().map((withImage) => (withImage ? [{ key: 'fig-1.png', categoryFileId: null, fileName: 'fig 1.png', mimeType: 'image/png' }] : []));
const stemWith = (withImage: boolean, base: string) => (withImage ? `${base}<p><img src="media:fig-1.png" alt="figure"></p>` : base);

const answer = fc.record({ text: fc.constantFrom(...WORDS), caseSensitive: fc.boolean() });

export const itemContent: fc.Arbitrary<ItemContent> = fc
  .record({
    kind: fc.constantFrom('singleChoice', 'multipleChoice', 'trueFalse', 'numeric', 'shortText', 'fillInBlanks', 'matching', 'ordering', 'essay'),
    languages,
    marking,
    partial,
    stem: html,
    n: fc.integer({ min: 2, max: 6 }),
    m: fc.integer({ min: 1, max: 4 }),
    keepLast: fc.integer({ min: 0, max: 1 }),
    seed: fc.integer({ min: 0, max: 1_000_000 }),
    media,
    flag: fc.boolean(),
    number: fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }).map((x) => Math.round(x * 1000) / 1000),
    tolerance: fc.record({ mode: fc.constantFrom('absolute', 'relative') as fc.Arbitrary<'absolute' | 'relative'>, value: fc.constantFrom(0, 0.01, 0.5, 5) }),
    answers: fc.uniqueArray(answer, { minLength: 1, maxLength: 3, selector: (a) => a.text.toLowerCase() }),
    credits: fc.array(fc.constantFrom(0.5, 0.25, 1), { minLength: 3, maxLength: 3 }),
  })
  .map((g): ItemContent => {
    const rotate = <T>(xs: T[]) => xs.map((_, i) => xs[(i + g.seed) % xs.length]);
    const stem = (lang: string) => stemWith(g.media.length > 0, `${g.stem}<p>${lang}</p>`);
    const common = { marking: g.marking, media: g.media };
    const ids = idsOf('C', g.n);
    switch (g.kind) {
      case 'singleChoice':
        return {
          kind: 'singleChoice',
          variants: variants(g.languages, stem, ids),
          ...common,
          options: choices(ids, g.keepLast),
          correct: ids[g.seed % g.n],
          shuffle: g.flag,
        };
      case 'multipleChoice': {
        const correct = ids.filter((_, i) => (g.seed >> i) & 1 || i === g.seed % g.n);
        return {
          kind: 'multipleChoice',
          variants: variants(g.languages, stem, ids),
          ...common,
          options: choices(ids, g.keepLast),
          correct,
          minChoices: 0,
          maxChoices: g.flag ? 0 : ids.length,
          shuffle: g.flag,
          partial: g.partial,
        };
      }
      case 'trueFalse':
        return { kind: 'trueFalse', variants: variants(g.languages, stem), ...common, correct: g.flag };
      case 'numeric':
        return { kind: 'numeric', variants: variants(g.languages, stem), ...common, answer: g.number, tolerance: g.tolerance };
      case 'shortText':
        return {
          kind: 'shortText',
          variants: variants(g.languages, stem),
          ...common,
          answers: g.answers.map((a, i) => ({ ...a, credit: i === 0 ? 1 : g.credits[i] })),
          expectedLength: 20,
        };
      case 'fillInBlanks': {
        const gapIds = idsOf('G', g.m);
        return {
          kind: 'fillInBlanks',
          variants: variants(g.languages, (lang) => `<p>${lang}: ${gapIds.map((id) => `word <span data-gap="${id}"></span>`).join(', ')}.</p>`),
          marking: g.marking,
          media: [],
          gaps: gapIds.map((id, i) => ({ id, answers: rotate(g.answers).slice(0, 1 + (i % g.answers.length)), expectedLength: 15 })),
          partial: g.partial,
        };
      }
      case 'matching': {
        const left = idsOf('L', g.m);
        const right = idsOf('R', g.n);
        const pairs = left.map((l, i) => ({ left: l, right: right[(i + g.seed) % right.length] }));
        return {
          kind: 'matching',
          variants: variants(g.languages, stem, [...left, ...right]),
          ...common,
          left: choices(left, 0),
          right: choices(right, g.keepLast),
          pairs,
          shuffle: g.flag,
          partial: g.partial,
        };
      }
      case 'ordering':
        return {
          kind: 'ordering',
          variants: variants(g.languages, stem, ids),
          ...common,
          options: choices(ids, 0),
          correctOrder: rotate(ids),
          shuffle: g.flag,
        };
      default:
        return {
          kind: 'essay',
          variants: variants(g.languages, stem, [], { rubric: g.flag ? '<p>Two marks per point.</p>' : null }),
          ...common,
          marking: { ...g.marking, wrong: 0 },
          wordLimit: g.flag ? 100 : null,
        };
    }
  });

const someText = fc.oneof(fc.constantFrom(...WORDS, '', '  ', 'PARIS', 'Oxygen '), fc.string({ maxLength: 12 }));

/** A response to the item: the key, parts of it, wrong parts, nothing, or junk of the right shape. */
export function responseFor(item: ItemContent): fc.Arbitrary<ItemResponse> {
  switch (item.kind) {
    case 'singleChoice':
      return fc.oneof(fc.constant(null), fc.constant(item.correct), fc.constantFrom(...item.options.map((o) => o.id), 'ZZ', ''));
    case 'trueFalse':
      return fc.constantFrom(true, false, null);
    case 'multipleChoice':
    case 'ordering': {
      const ids = item.options.map((o) => o.id);
      const key = item.kind === 'ordering' ? item.correctOrder : item.correct;
      return fc.oneof(fc.constant(key), fc.constant(null), fc.subarray(ids), fc.shuffledSubarray([...ids, 'ZZ']));
    }
    case 'matching': {
      const pairs = item.left.flatMap((l) => item.right.map((r) => [l.id, r.id] as [string, string]));
      return fc.oneof(
        fc.constant(item.pairs.map((p) => [p.left, p.right] as [string, string])),
        fc.constant(null),
        fc.subarray(pairs, { maxLength: Math.min(6, pairs.length) }),
      );
    }
    case 'numeric': {
      const t = item.tolerance.mode === 'absolute' ? item.tolerance.value : (Math.abs(item.answer) * item.tolerance.value) / 100;
      return fc.oneof(
        fc.constantFrom(item.answer, String(item.answer), item.answer + t, item.answer - t * 1.5, null, '', 'abc', '1e3'),
        fc.double({ noNaN: true, min: -1e7, max: 1e7 }),
      );
    }
    case 'shortText':
      return fc.oneof(
        fc.constantFrom(...item.answers.flatMap((a) => [a.text, a.text.toUpperCase(), ` ${a.text.toLowerCase()} `])),
        someText,
        fc.constant(null),
      );
    case 'fillInBlanks':
      return fc.oneof(
        fc.constant(null),
        fc.record(Object.fromEntries(item.gaps.map((g) => [g.id, fc.oneof(fc.constantFrom(...g.answers.map((a) => a.text), null), someText)]))),
      ) as fc.Arbitrary<ItemResponse>;
    case 'essay':
      return fc.oneof(fc.constant(null), fc.constant(''), fc.lorem({ maxCount: 30 }));
  }
}

export const itemWithResponses = itemContent.chain((item) => fc.tuple(fc.constant(item), fc.array(responseFor(item), { minLength: 1, maxLength: 8 })));
