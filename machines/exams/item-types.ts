import { Type, type Static } from 'typebox';
import { ITEM_KINDS, ITEM_LIMITS, Marking, PartialCredit, type ItemKind } from '../items/item-schema.ts';

/**
 * Item types (EXAMS.md §2): a project's named use of one of the nine base kinds of the item
 * content model (docs/decisions/0120) with default settings and default marking — "MCQ +4/−1",
 * "Numeric ±0.01", "Essay (250 words)". New items of the type start from these; the item keeps
 * its own copy, so editing a type never rescores existing items. Shared by the server
 * (validation, OpenAPI) and the set-up stepper.
 */
export const ItemTypeSettings = Type.Object(
  {
    shuffle: Type.Optional(Type.Boolean({ description: 'Shuffle options (choice, matching, ordering).' })),
    partial: Type.Optional(
      Type.Union([PartialCredit, Type.Null()], { description: 'Partial credit (multiple choice, matching, fill in the blanks); null: all or nothing.' }),
    ),
    maxChoices: Type.Optional(Type.Integer({ minimum: 0, maximum: ITEM_LIMITS.choices, description: 'Multiple choice: 0 = no limit.' })),
    tolerance: Type.Optional(
      Type.Object(
        { mode: Type.Union([Type.Literal('absolute'), Type.Literal('relative')]), value: Type.Number({ minimum: 0, maximum: 1e9 }) },
        { additionalProperties: false, description: 'Numeric: accepted distance from the answer.' },
      ),
    ),
    caseSensitive: Type.Optional(Type.Boolean({ description: 'Short text and fill in the blanks: compare case.' })),
    wordLimit: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: ITEM_LIMITS.wordLimit }), Type.Null()], { description: 'Essay.' })),
  },
  { additionalProperties: false },
);
export type ItemTypeSettings = Static<typeof ItemTypeSettings>;

/** Which settings mean something for which kind. */
export const settingsByKind: Record<ItemKind, ReadonlyArray<keyof ItemTypeSettings>> = {
  singleChoice: ['shuffle'],
  multipleChoice: ['shuffle', 'partial', 'maxChoices'],
  trueFalse: [],
  numeric: ['tolerance'],
  shortText: ['caseSensitive'],
  fillInBlanks: ['partial', 'caseSensitive'],
  matching: ['shuffle', 'partial'],
  ordering: ['shuffle'],
  essay: ['wordLimit'],
};

export const ItemTypeKind = Type.Enum(ITEM_KINDS, { description: 'One of the nine base kinds.' });

export { Marking };
export type ItemTypeMarking = Static<typeof Marking>;

/** Rules a schema cannot say, as `{field: [messages]}` (empty when the type is fine). */
export function checkItemType(kind: ItemKind, settings: ItemTypeSettings, marking: ItemTypeMarking): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const allowed = settingsByKind[kind];
  for (const key of Object.keys(settings) as Array<keyof ItemTypeSettings>) {
    if (!allowed.includes(key)) {
      (errors[`settings.${key}`] ??= []).push(
        `${key} does not apply to ${kind}${allowed.length ? ` (it takes ${allowed.join(', ')})` : ' (it takes no settings)'}.`,
      );
    }
  }
  // Essays are marked by people against a rubric: a written answer is never "wrong" (0120).
  if (kind === 'essay' && marking.wrong !== 0) (errors['marking.wrong'] ??= []).push('An essay has no marks for a wrong answer: use 0.');
  if (settings.partial && settings.partial.perCorrect > marking.correct) {
    (errors['settings.partial.perCorrect'] ??= []).push('perCorrect cannot exceed the marks for a correct answer.');
  }
  return errors;
}

/** The nine kinds with a sensible starting type each (the stepper offers these). */
export const baseItemTypes: ReadonlyArray<{ name: string; kind: ItemKind; settings: ItemTypeSettings; marking: ItemTypeMarking }> = [
  { name: 'Single choice', kind: 'singleChoice', settings: { shuffle: true }, marking: { correct: 1, wrong: 0, unanswered: 0 } },
  {
    name: 'Multiple choice',
    kind: 'multipleChoice',
    settings: { shuffle: true, partial: null, maxChoices: 0 },
    marking: { correct: 2, wrong: 0, unanswered: 0 },
  },
  { name: 'True or false', kind: 'trueFalse', settings: {}, marking: { correct: 1, wrong: 0, unanswered: 0 } },
  { name: 'Numeric', kind: 'numeric', settings: { tolerance: { mode: 'absolute', value: 0 } }, marking: { correct: 2, wrong: 0, unanswered: 0 } },
  { name: 'Short answer', kind: 'shortText', settings: { caseSensitive: false }, marking: { correct: 1, wrong: 0, unanswered: 0 } },
  {
    name: 'Fill in the blanks',
    kind: 'fillInBlanks',
    settings: { partial: { perCorrect: 1, perWrong: 0, wrongCancels: false }, caseSensitive: false },
    marking: { correct: 2, wrong: 0, unanswered: 0 },
  },
  {
    name: 'Match the following',
    kind: 'matching',
    settings: { shuffle: true, partial: { perCorrect: 1, perWrong: 0, wrongCancels: false } },
    marking: { correct: 4, wrong: 0, unanswered: 0 },
  },
  { name: 'Sequence', kind: 'ordering', settings: { shuffle: true }, marking: { correct: 2, wrong: 0, unanswered: 0 } },
  { name: 'Long answer', kind: 'essay', settings: { wordLimit: 250 }, marking: { correct: 5, wrong: 0, unanswered: 0 } },
];
