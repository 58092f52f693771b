import { Type, type Static } from 'typebox';

/**
 * The content of an item (docs/decisions/0120): what a candidate sees in each language, the
 * answer key and the marking rules, for the nine base kinds. Plain data stored as JSON by the
 * server and sent to the client, which scores previews with the same `score()` (score.ts).
 *
 * The TypeBox schemas are the server's validation and the OpenAPI description; the types are
 * derived from them. The scorer imports these types only (`import type`), so the client does
 * not bundle TypeBox to score.
 */

export const ITEM_KINDS = ['singleChoice', 'multipleChoice', 'trueFalse', 'numeric', 'shortText', 'fillInBlanks', 'matching', 'ordering', 'essay'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

/** Limits that keep one item's scoring and storage bounded. */
export const ITEM_LIMITS = {
  choices: 26,
  gaps: 30,
  answersPerGap: 30,
  htmlLength: 100_000,
  textAnswerLength: 500,
  media: 50,
  variants: 12,
  marks: 1000,
  wordLimit: 20_000,
} as const;

/** A QTI identifier (NCName without colon), so ids survive export unchanged. */
export const Identifier = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z_][A-Za-z0-9_.-]*$',
  description: 'Stable id of an option, gap or pair member within the item (a QTI identifier).',
});

/** A content language: en, hi, gu, fr, es, or another BCP 47 language tag. */
export const LanguageCode = Type.String({
  minLength: 2,
  maxLength: 20,
  pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$',
  description: 'BCP 47 language tag of a variant, e.g. en, hi, gu.',
});

/**
 * Rich text: HTML from the allow list (server/lib/items/item-html.ts), sanitized when stored
 * and again when rendered. Media appear as `src="media:<key>"` (a key of `media`); gaps of
 * text-entry kinds as `<span data-gap="<id>"></span>`.
 */
export const Html = Type.String({ maxLength: ITEM_LIMITS.htmlLength, description: 'Sanitized HTML.' });

const Marks = (description: string, minimum: number, maximum: number) => Type.Number({ minimum, maximum, description });

export const Marking = Type.Object(
  {
    correct: Type.Number({ exclusiveMinimum: 0, maximum: ITEM_LIMITS.marks, description: 'Marks for a correct answer (the maximum).' }),
    wrong: Marks('Marks for a wrong answer: 0, or negative for negative marking (e.g. -1 with +4).', -ITEM_LIMITS.marks, 0),
    unanswered: Marks('Marks when nothing is answered (usually 0).', -ITEM_LIMITS.marks, 0),
    byPerson: Type.Optional(
      Type.Boolean({
        description:
          'Marked by a person from the marking queue (0 … correct) instead of automatically; essays always are. An unanswered item still scores `unanswered`.',
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * Partial credit for kinds made of parts (options of multiple choice, pairs of matching, gaps):
 * a fully correct answer earns `marking.correct`; otherwise, when `wrongCancels` and a wrong
 * part was given, `marking.wrong`; otherwise each correct part earns `perCorrect` and each wrong
 * part `perWrong`, the sum kept within [marking.wrong, marking.correct].
 */
export const PartialCredit = Type.Object(
  {
    perCorrect: Marks('Marks for each correct part given.', 0, ITEM_LIMITS.marks),
    perWrong: Marks('Marks for each wrong part given (0 or negative).', -ITEM_LIMITS.marks, 0),
    wrongCancels: Type.Boolean({ description: 'Any wrong part gives marking.wrong (e.g. JEE Advanced multiple correct).' }),
  },
  { additionalProperties: false },
);

export const Choice = Type.Object(
  {
    id: Identifier,
    keepLast: Type.Boolean({ description: 'Stays at the end when options are shuffled (e.g. "All of the above").' }),
  },
  { additionalProperties: false },
);

export const MediaRef = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_./-]+$', description: 'Referenced in HTML as media:<key>.' }),
    categoryFileId: Type.Union([Type.String({ maxLength: 64 }), Type.Null()], { description: 'The category file, once stored.' }),
    fileName: Type.String({ minLength: 1, maxLength: 255 }),
    mimeType: Type.String({ minLength: 3, maxLength: 100 }),
  },
  { additionalProperties: false },
);

export const Variant = Type.Object(
  {
    stem: Html,
    choices: Type.Optional(Type.Record(Type.String(), Html, { description: 'Text of each option / matching member, by id.' })),
    rubric: Type.Optional(Type.Union([Html, Type.Null()], { description: 'Essay: the marking rubric for markers.' })),
  },
  { additionalProperties: false },
);

export const TextAnswer = Type.Object(
  {
    text: Type.String({ minLength: 1, maxLength: ITEM_LIMITS.textAnswerLength }),
    caseSensitive: Type.Boolean(),
  },
  { additionalProperties: false },
);

const common = {
  variants: Type.Record(LanguageCode, Variant, {
    additionalProperties: false,
    maxProperties: ITEM_LIMITS.variants,
    description: 'Content per language; a language may be missing.',
  }),
  marking: Marking,
  media: Type.Array(MediaRef, { maxItems: ITEM_LIMITS.media }),
};
const choices = Type.Array(Choice, { minItems: 2, maxItems: ITEM_LIMITS.choices });

export const SingleChoiceItem = Type.Object(
  { kind: Type.Literal('singleChoice'), ...common, options: choices, correct: Identifier, shuffle: Type.Boolean() },
  { additionalProperties: false },
);

export const MultipleChoiceItem = Type.Object(
  {
    kind: Type.Literal('multipleChoice'),
    ...common,
    options: choices,
    correct: Type.Array(Identifier, { minItems: 1, maxItems: ITEM_LIMITS.choices }),
    minChoices: Type.Integer({ minimum: 0, maximum: ITEM_LIMITS.choices }),
    maxChoices: Type.Integer({ minimum: 0, maximum: ITEM_LIMITS.choices, description: '0: no limit.' }),
    shuffle: Type.Boolean(),
    partial: Type.Union([PartialCredit, Type.Null()], { description: 'null: all or nothing.' }),
  },
  { additionalProperties: false },
);

export const TrueFalseItem = Type.Object({ kind: Type.Literal('trueFalse'), ...common, correct: Type.Boolean() }, { additionalProperties: false });

export const NumericItem = Type.Object(
  {
    kind: Type.Literal('numeric'),
    ...common,
    answer: Type.Number({ minimum: -1e15, maximum: 1e15 }),
    tolerance: Type.Object(
      {
        mode: Type.Union([Type.Literal('absolute'), Type.Literal('relative')]),
        value: Type.Number({ minimum: 0, maximum: 1e15, description: 'absolute: ± this amount; relative: ± this percentage of the answer.' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const ShortTextItem = Type.Object(
  {
    kind: Type.Literal('shortText'),
    ...common,
    answers: Type.Array(
      Type.Object(
        {
          ...TextAnswer.properties,
          credit: Type.Number({ exclusiveMinimum: 0, maximum: 1, description: 'Share of marking.correct this answer earns.' }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: ITEM_LIMITS.answersPerGap },
    ),
    expectedLength: Type.Integer({ minimum: 1, maximum: ITEM_LIMITS.textAnswerLength }),
  },
  { additionalProperties: false },
);

export const FillInBlanksItem = Type.Object(
  {
    kind: Type.Literal('fillInBlanks'),
    ...common,
    gaps: Type.Array(
      Type.Object(
        {
          id: Identifier,
          answers: Type.Array(TextAnswer, { minItems: 1, maxItems: ITEM_LIMITS.answersPerGap }),
          expectedLength: Type.Integer({ minimum: 1, maximum: ITEM_LIMITS.textAnswerLength }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: ITEM_LIMITS.gaps },
    ),
    partial: Type.Union([PartialCredit, Type.Null()]),
  },
  { additionalProperties: false },
);

export const MatchingItem = Type.Object(
  {
    kind: Type.Literal('matching'),
    ...common,
    left: Type.Array(Choice, { minItems: 1, maxItems: ITEM_LIMITS.choices }),
    right: Type.Array(Choice, { minItems: 1, maxItems: ITEM_LIMITS.choices }),
    pairs: Type.Array(Type.Object({ left: Identifier, right: Identifier }, { additionalProperties: false }), {
      minItems: 1,
      maxItems: ITEM_LIMITS.choices * ITEM_LIMITS.choices,
    }),
    shuffle: Type.Boolean(),
    partial: Type.Union([PartialCredit, Type.Null()]),
  },
  { additionalProperties: false },
);

export const OrderingItem = Type.Object(
  {
    kind: Type.Literal('ordering'),
    ...common,
    options: choices,
    correctOrder: Type.Array(Identifier, { minItems: 2, maxItems: ITEM_LIMITS.choices }),
    shuffle: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const EssayItem = Type.Object(
  {
    kind: Type.Literal('essay'),
    ...common,
    wordLimit: Type.Union([Type.Integer({ minimum: 1, maximum: ITEM_LIMITS.wordLimit }), Type.Null()]),
  },
  { additionalProperties: false },
);

export const ItemContentSchema = Type.Union(
  [SingleChoiceItem, MultipleChoiceItem, TrueFalseItem, NumericItem, ShortTextItem, FillInBlanksItem, MatchingItem, OrderingItem, EssayItem],
  { description: 'Item content: one of the nine base kinds (docs/decisions/0120).' },
);

export type ItemContent = Static<typeof ItemContentSchema>;
export type ItemOf<K extends ItemKind> = Extract<ItemContent, { kind: K }>;
export type Marking = Static<typeof Marking>;
export type PartialCredit = Static<typeof PartialCredit>;
export type Choice = Static<typeof Choice>;
export type MediaRef = Static<typeof MediaRef>;
export type Variant = Static<typeof Variant>;
export type TextAnswer = Static<typeof TextAnswer>;

/**
 * A candidate's response, by kind (null or absent: not answered):
 * singleChoice: option id; multipleChoice: option ids; trueFalse: boolean; numeric: a number or
 * the typed text; shortText / essay: text; fillInBlanks: text by gap id; matching: [left, right]
 * pairs; ordering: option ids in the chosen order.
 */
export const ItemResponseSchema = Type.Union([
  Type.Null(),
  Type.String({ maxLength: 200_000 }),
  Type.Number(),
  Type.Boolean(),
  Type.Array(Type.String({ maxLength: 64 }), { maxItems: ITEM_LIMITS.choices * ITEM_LIMITS.choices }),
  Type.Array(Type.Tuple([Type.String({ maxLength: 64 }), Type.String({ maxLength: 64 })]), {
    maxItems: ITEM_LIMITS.choices * ITEM_LIMITS.choices,
  }),
  Type.Record(Type.String({ maxLength: 64 }), Type.Union([Type.String({ maxLength: ITEM_LIMITS.textAnswerLength * 4 }), Type.Null()])),
]);
export type ItemResponse = Static<typeof ItemResponseSchema>;
