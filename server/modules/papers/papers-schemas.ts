import { Type, type Static } from 'typebox';
import { ItemContentJson } from '#machines/items/item-records.ts';
import { paperStatusNames } from '#machines/papers/paper-flow.machine.ts';
import { DIFFICULTIES, PAPER_LIMITS } from '#machines/papers/paper-records.ts';
import { Code, HistoryEntry, RecordId } from '#server/modules/exams/exams-schemas.ts';

/** Request and answer shapes of papers, sections and sets (issue 17, docs/decisions/0140); also their OpenAPI. */

const Timestamp = Type.String({ format: 'date-time' });
const Uuid = Type.String({ format: 'uuid' });
const Version = Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'The version the edit was made on (or send If-Match).' });
const UserStamp = Type.Union([Type.Object({ userId: Uuid, name: Type.String() }), Type.Null()]);
const Marks = Type.Number({ exclusiveMinimum: 0, maximum: 100_000, description: 'Marks (kept to two decimals).' });
const Minutes = Type.Integer({ minimum: 1, maximum: 1440 });

export const Difficulty = Type.Enum(DIFFICULTIES);
export const PaperStatusName = Type.Enum(paperStatusNames);
export const Navigation = Type.Union([Type.Literal('free'), Type.Literal('sectional')], {
  description: 'free: any question any time; sectional: section by section.',
});
export const PaperMode = Type.Union([Type.Literal('online'), Type.Literal('offline')], { description: 'online (CBT) or offline (on paper).' });
/** Text per content language, e.g. {en: "…", hi: "…"}. */
const InstructionText = Type.String({ maxLength: 20_000 });
export const Instructions = Type.Object(
  {
    en: Type.Optional(InstructionText),
    hi: Type.Optional(InstructionText),
    gu: Type.Optional(InstructionText),
    fr: Type.Optional(InstructionText),
    es: Type.Optional(InstructionText),
  },
  { additionalProperties: false, description: 'Instructions per content language (en, hi, gu, fr, es).' },
);

export const PaperIdParams = Type.Object({ id: RecordId });
export const SectionParams = Type.Object({ id: RecordId, sectionId: RecordId });
export const SetParams = Type.Object({ id: RecordId, letter: Type.String({ pattern: '^[A-Z]{1,2}$', description: 'Set letter: A, B …' }) });

export const DrawRuleSchema = Type.Object(
  {
    categoryId: RecordId,
    difficulty: Difficulty,
    count: Type.Integer({ minimum: 0, maximum: PAPER_LIMITS.itemsPerSection }),
  },
  { additionalProperties: false },
);
/**
 * One object, not a union of two closed ones: Fastify's Ajv runs with `removeAdditional`, which
 * strips a branch's fields while trying the other. The handler checks that `fixed` has `items`
 * and `draw` has `draws` (normalizeRule).
 */
export const SelectionRuleSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('fixed'), Type.Literal('draw')], {
      description: 'fixed: items picked from the bank; draw: N approved items per category × difficulty.',
    }),
    items: Type.Optional(
      Type.Array(RecordId, { maxItems: PAPER_LIMITS.itemsPerSection, description: 'fixed: item version ids, in the order the setter chose.' }),
    ),
    draws: Type.Optional(Type.Array(DrawRuleSchema, { maxItems: PAPER_LIMITS.drawsPerSection, description: 'draw: the rules.' })),
  },
  { additionalProperties: false },
);
export type SelectionRuleInput = Static<typeof SelectionRuleSchema>;
export type SelectionRuleBody = { kind: 'fixed'; items: number[] } | { kind: 'draw'; draws: Array<Static<typeof DrawRuleSchema>> };

const sectionFields = {
  order: Type.Integer({ minimum: 1, maximum: 1000 }),
  title: Type.String({ minLength: 1, maxLength: 200 }),
  instructions: Instructions,
  marksPerItem: Marks,
  attemptAny: Type.Union([Type.Integer({ minimum: 1, maximum: PAPER_LIMITS.itemsPerSection }), Type.Null()], {
    description: '"Attempt any N of M"; null: all.',
  }),
  timeLimitMinutes: Type.Union([Minutes, Type.Null()]),
  shuffleItems: Type.Boolean(),
  shuffleOptions: Type.Boolean(),
  rule: SelectionRuleSchema,
};

export const CreateSectionBody = Type.Object(
  {
    order: Type.Optional(sectionFields.order),
    title: sectionFields.title,
    instructions: Type.Optional(sectionFields.instructions),
    marksPerItem: sectionFields.marksPerItem,
    attemptAny: Type.Optional(sectionFields.attemptAny),
    timeLimitMinutes: Type.Optional(sectionFields.timeLimitMinutes),
    shuffleItems: Type.Optional(sectionFields.shuffleItems),
    shuffleOptions: Type.Optional(sectionFields.shuffleOptions),
    rule: sectionFields.rule,
  },
  { additionalProperties: false },
);
export type CreateSectionBody = Static<typeof CreateSectionBody>;

export const EditSectionBody = Type.Object(
  {
    order: Type.Optional(sectionFields.order),
    title: Type.Optional(sectionFields.title),
    instructions: Type.Optional(sectionFields.instructions),
    marksPerItem: Type.Optional(sectionFields.marksPerItem),
    attemptAny: Type.Optional(sectionFields.attemptAny),
    timeLimitMinutes: Type.Optional(sectionFields.timeLimitMinutes),
    shuffleItems: Type.Optional(sectionFields.shuffleItems),
    shuffleOptions: Type.Optional(sectionFields.shuffleOptions),
    rule: Type.Optional(sectionFields.rule),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
);
export type EditSectionBody = Static<typeof EditSectionBody>;

export const SectionOrderBody = Type.Object(
  {
    sectionIds: Type.Array(RecordId, {
      minItems: 1,
      maxItems: PAPER_LIMITS.sections,
      description: 'Every section of the paper, each once, in the new order (the first becomes section 1).',
    }),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
);
export type SectionOrderBody = Static<typeof SectionOrderBody>;

export const Section = Type.Object({
  sectionId: RecordId,
  order: Type.Integer(),
  title: Type.String(),
  instructions: Type.Record(Type.String(), Type.String()),
  marksPerItem: Type.Number(),
  attemptAny: Type.Union([Type.Integer(), Type.Null()]),
  timeLimitMinutes: Type.Union([Type.Integer(), Type.Null()]),
  shuffleItems: Type.Boolean(),
  shuffleOptions: Type.Boolean(),
  rule: SelectionRuleSchema,
  itemCount: Type.Integer(),
  marks: Type.Number({ description: 'What a candidate can earn here: marks per item × the items that count.' }),
  version: Type.Integer(),
});

const paperFields = {
  code: Code,
  title: Type.String({ minLength: 1, maxLength: 200 }),
  durationMinutes: Minutes,
  totalMarks: Marks,
  instructions: Instructions,
  navigation: Navigation,
  calculator: Type.Boolean({ description: 'Whether a calculator is allowed.' }),
  mode: PaperMode,
};

export const CreatePaperBody = Type.Object(
  {
    code: paperFields.code,
    title: paperFields.title,
    durationMinutes: paperFields.durationMinutes,
    totalMarks: paperFields.totalMarks,
    instructions: Type.Optional(paperFields.instructions),
    navigation: Type.Optional(paperFields.navigation),
    calculator: Type.Optional(paperFields.calculator),
    mode: Type.Optional(paperFields.mode),
  },
  { additionalProperties: false },
);
export type CreatePaperBody = Static<typeof CreatePaperBody>;

export const EditPaperBody = Type.Object(
  {
    code: Type.Optional(paperFields.code),
    title: Type.Optional(paperFields.title),
    durationMinutes: Type.Optional(paperFields.durationMinutes),
    totalMarks: Type.Optional(paperFields.totalMarks),
    instructions: Type.Optional(paperFields.instructions),
    navigation: Type.Optional(paperFields.navigation),
    calculator: Type.Optional(paperFields.calculator),
    mode: Type.Optional(paperFields.mode),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
);
export type EditPaperBody = Static<typeof EditPaperBody>;

export const Paper = Type.Object({
  paperId: RecordId,
  examId: RecordId,
  code: Type.String(),
  title: Type.String(),
  durationMinutes: Type.Integer(),
  totalMarks: Type.Number(),
  instructions: Type.Record(Type.String(), Type.String()),
  navigation: Navigation,
  calculator: Type.Boolean(),
  mode: PaperMode,
  status: PaperStatusName,
  lockedAt: Type.Union([Timestamp, Type.Null()]),
  lockedBy: UserStamp,
  setCount: Type.Integer(),
  sections: Type.Array(Section),
  version: Type.Integer(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  updatedBy: UserStamp,
  actions: Type.Array(Type.String(), { description: 'The paper-flow events you may send now.' }),
  contentVisible: Type.Boolean({
    description:
      'Whether you may see what is in the paper (its setters, moderators and project admins): otherwise its sections come without their items or draws, and its items, blueprint and sets answer 403.',
  }),
});

export const PAPER_EVENTS = ['paper.submit', 'paper.requestChanges', 'paper.lock', 'paper.unlock', 'paper.publish'] as const;
export const PaperStatusBody = Type.Object(
  {
    event: Type.Enum(PAPER_EVENTS),
    reason: Type.Optional(Type.String({ maxLength: 2000, description: 'Required to ask for changes and to unlock.' })),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
);

export const PaperTransition = Type.Object({ fromStatus: PaperStatusName, toStatus: PaperStatusName, record: Paper });

const Cell = Type.Object({
  sectionId: Type.String(),
  categoryId: Type.Union([Type.String(), Type.Null()]),
  difficulty: Type.Union([Difficulty, Type.Null()]),
  count: Type.Integer(),
  marks: Type.Number(),
});
export const BlueprintWarningSchema = Type.Object({
  code: Type.String(),
  blocking: Type.Boolean({ description: 'Whether it stops the paper from being locked.' }),
  message: Type.String(),
  sectionId: Type.Optional(Type.String()),
  sectionIds: Type.Optional(Type.Array(Type.String())),
  versionId: Type.Optional(Type.String()),
  itemId: Type.Optional(Type.String()),
  categoryId: Type.Optional(Type.String()),
  difficulty: Type.Optional(Difficulty),
  wanted: Type.Optional(Type.Integer()),
  approved: Type.Optional(Type.Integer()),
  declared: Type.Optional(Type.Number()),
  computed: Type.Optional(Type.Number()),
  attemptAny: Type.Optional(Type.Integer()),
  count: Type.Optional(Type.Integer()),
  language: Type.Optional(Type.String()),
});
export const BlueprintSchema = Type.Object({
  declaredMarks: Type.Number(),
  computedMarks: Type.Number(),
  itemCount: Type.Integer(),
  sections: Type.Array(Type.Object({ sectionId: Type.String(), title: Type.String(), count: Type.Integer(), marks: Type.Number(), cells: Type.Array(Cell) })),
  byCategory: Type.Array(
    Type.Object({
      categoryId: Type.Union([Type.String(), Type.Null()]),
      categoryName: Type.Union([Type.String(), Type.Null()]),
      count: Type.Integer(),
      marks: Type.Number(),
    }),
  ),
  byDifficulty: Type.Array(Type.Object({ difficulty: Type.Union([Difficulty, Type.Null()]), count: Type.Integer(), marks: Type.Number() })),
  languages: Type.Array(Type.Object({ language: Type.String(), missing: Type.Array(Type.String()), drawPoolMissing: Type.Integer() })),
  warnings: Type.Array(BlueprintWarningSchema),
  blocking: Type.Integer(),
});

export const GenerateSetsBody = Type.Object(
  {
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: PAPER_LIMITS.sets, description: 'How many sets (A, B, …); default 4.' })),
    seeds: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }), {
        minItems: 1,
        maxItems: PAPER_LIMITS.sets,
        description: 'The seed of each set, in letter order (to regenerate recorded sets); random when not given.',
      }),
    ),
  },
  { additionalProperties: false },
);

const SetItemSchema = Type.Object({
  number: Type.Integer(),
  versionId: Type.String(),
  itemId: Type.String(),
  categoryId: Type.Union([Type.String(), Type.Null()]),
  difficulty: Type.Union([Difficulty, Type.Null()]),
  marks: Type.Number(),
  options: Type.Union([Type.Array(Type.String()), Type.Null()]),
  left: Type.Union([Type.Array(Type.String()), Type.Null()]),
  right: Type.Union([Type.Array(Type.String()), Type.Null()]),
});
export const PaperSetSchema = Type.Object({
  letter: Type.String(),
  seed: Type.String(),
  sections: Type.Array(Type.Object({ sectionId: Type.String(), items: Type.Array(SetItemSchema) })),
});
export const StoredSet = Type.Object({
  letter: Type.String(),
  seed: Type.String(),
  sha256: Type.String(),
  createdAt: Timestamp,
  set: PaperSetSchema,
});
const Equivalence = Type.Object({
  equivalent: Type.Boolean(),
  differences: Type.Array(
    Type.Object({
      cell: Type.String(),
      letter: Type.String(),
      count: Type.Integer(),
      marks: Type.Number(),
      expectedCount: Type.Integer(),
      expectedMarks: Type.Number(),
    }),
  ),
});
export const SetList = Type.Object({ sets: Type.Array(StoredSet), equivalence: Equivalence });
export const SetWithItems = Type.Object({
  set: StoredSet,
  /** The content of every item of the set (as locked), by version id: the preview and the print read it. */
  items: Type.Record(Type.String(), ItemContentJson),
  sections: Type.Array(
    Type.Object({
      sectionId: Type.String(),
      title: Type.String(),
      instructions: Type.Record(Type.String(), Type.String()),
      attemptAny: Type.Union([Type.Integer(), Type.Null()]),
      timeLimitMinutes: Type.Union([Type.Integer(), Type.Null()]),
    }),
  ),
});
export const SetComparison = Type.Object({
  letters: Type.Array(Type.String()),
  equivalence: Equivalence,
  rows: Type.Array(
    Type.Object({
      versionId: Type.String(),
      itemId: Type.String(),
      sectionId: Type.String(),
      positions: Type.Record(Type.String(), Type.Union([Type.Integer(), Type.Null()])),
    }),
  ),
});
export const SetVerification = Type.Object({
  letter: Type.String(),
  seed: Type.String(),
  identical: Type.Boolean(),
  sha256: Type.String(),
  regeneratedSha256: Type.String(),
});
export const Deleted = Type.Object({ deleted: Type.Boolean() });
export const PrintQuery = Type.Object(
  {
    languages: Type.Optional(
      Type.String({
        pattern: '^(en|hi|gu|fr|es)(,(en|hi|gu|fr|es))?$',
        description: 'One or two content languages, the main one first: en,hi (default: en and the project’s next language).',
      }),
    ),
    part: Type.Optional(Type.Union([Type.Literal('paper'), Type.Literal('key')], { description: 'paper (default) or key (the answer key).' })),
  },
  { additionalProperties: false },
);
/** The PDF (documented for OpenAPI; a Buffer is sent as is). */
export const PdfBytes = { description: 'The PDF', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } };
export { HistoryEntry };

/** What the builder shows of each version a paper's fixed sections pin (the rule lists only version ids). */
export const FixedItems = Type.Array(
  Type.Object({
    versionId: Type.String(),
    itemId: Type.String(),
    code: Type.String(),
    versionNumber: Type.Integer(),
    categoryId: Type.Union([Type.String(), Type.Null()]),
    difficulty: Type.Union([Difficulty, Type.Null()]),
    status: Type.String({ description: 'The item’s status now.' }),
    approved: Type.Boolean({ description: 'This version is approved and the item not retired.' }),
    languages: Type.Array(Type.String()),
    stemText: Type.String({ description: 'Plain text of the item’s stem (at most 300 characters).' }),
  }),
);
