import { Type, type Static } from 'typebox';
import { ITEM_KINDS, LanguageCode, type ItemContent, type ItemResponse } from './item-schema.ts';

/**
 * The item bank's API contract (issue 16, docs/decisions/0123): the records the server answers
 * and the bodies it accepts under /api/v1/item…. Shared by the server (validation, OpenAPI) and
 * the client (types). Every route is a project call: send the selected project in `ProjectId`.
 */

/**
 * Item content on the wire: the precise schema is `ItemContentSchema` (item-schema.ts), checked
 * by the server with `checkItemContent` (TypeBox, which never changes the value). The route
 * schemas keep it open on purpose: Fastify's Ajv runs with `removeAdditional` and
 * `coerceTypes`, which inside a union of nine closed objects would strip or coerce fields of the
 * very item being checked (and turn a `false` or `0` response into `null`).
 */
export const ItemContentJson = Type.Unsafe<ItemContent>({
  type: 'object',
  required: ['kind'],
  properties: { kind: { type: 'string', enum: [...ITEM_KINDS] } },
  additionalProperties: true,
  description: 'Item content, one of the nine kinds (machines/items/item-schema.ts ItemContentSchema, docs/decisions/0120).',
});
/** A response by kind (item-schema.ts ItemResponseSchema), checked in the handler for the same reason. */
export const ItemResponseJson = Type.Unsafe<ItemResponse>({
  description: 'The response: an option id, ids, a boolean, a number or text, text by gap id, [left, right] pairs, ids in order, or null.',
});

const RecordId = Type.Integer({ minimum: 1, maximum: 999_999_999_999_999 });
const Uuid = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });
const Version = Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'The version the edit was made on (or send If-Match).' });
const UserStamp = Type.Union([Type.Object({ userId: Uuid, name: Type.String() }), Type.Null()]);

export const ItemKindName = Type.Enum(ITEM_KINDS);
export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;
export const Difficulty = Type.Enum(DIFFICULTIES);
export type Difficulty = (typeof DIFFICULTIES)[number];
/** Bloom's levels, the usual "cognitive level" tag of exam boards. */
export const COGNITIVE_LEVELS = ['remember', 'understand', 'apply', 'analyze', 'evaluate', 'create'] as const;
export const CognitiveLevel = Type.Enum(COGNITIVE_LEVELS);
/**
 * Where an item stands in the project's item flow: Draft, a stage id of the flow, Approved or
 * Retired (machines/exams/review-flow.machine.ts).
 */
export const ItemStatus = Type.String({ minLength: 1, maxLength: 40, description: 'Draft, a stage id of the item flow, Approved or Retired.' });

/** The review actions; `comment` adds a comment without moving the item. */
export const REVIEW_ACTIONS = ['submit', 'approve', 'requestChanges', 'retire', 'comment'] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];
export const ReviewActionName = Type.Enum(REVIEW_ACTIONS);

export const ItemCode = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z_][A-Za-z0-9_.-]*$',
  description: 'Code unique in the project (also the QTI identifier on export); generated (ITM-000042) when not given.',
});

/** A possible duplicate: another item whose stem is nearly the same (trigram similarity 0–1). */
export const DuplicateHint = Type.Object({
  itemId: RecordId,
  code: Type.String(),
  status: ItemStatus,
  similarity: Type.Number({ minimum: 0, maximum: 1 }),
  language: Type.String({ description: 'The language whose stems were compared.' }),
  stemText: Type.String({ description: 'Plain text of the other stem (at most 300 characters).' }),
});
export type DuplicateHint = Static<typeof DuplicateHint>;

/** One row of the list. */
export const ItemSummary = Type.Object({
  itemId: RecordId,
  code: Type.String(),
  kind: ItemKindName,
  itemTypeId: Type.Union([RecordId, Type.Null()]),
  categoryId: RecordId,
  categoryName: Type.String(),
  difficulty: Difficulty,
  cognitiveLevel: Type.Union([CognitiveLevel, Type.Null()]),
  status: ItemStatus,
  languages: Type.Array(Type.String(), { description: 'Languages with a variant in the latest version.' }),
  missingLanguages: Type.Array(Type.String(), { description: 'Languages of the project without a variant.' }),
  stemText: Type.String({ description: 'Plain text of the stem in the first language present (at most 300 characters).' }),
  maxScore: Type.Number(),
  versionNumber: Type.Integer({ description: 'Number of the latest version (1, 2, …).' }),
  approvedVersionId: Type.Union([RecordId, Type.Null()], { description: 'The latest approved version (what new papers pin).' }),
  author: UserStamp,
  version: Type.Integer({ description: 'Concurrency version of the item record (ETag).' }),
  updatedOn: Timestamp,
  duplicate: Type.Union([DuplicateHint, Type.Null()], { description: 'The most similar other item, when similarity ≥ 0.6.' }),
});
export type ItemSummary = Static<typeof ItemSummary>;

/** The item with its latest version's content. */
export const ItemRecord = Type.Object({
  ...ItemSummary.properties,
  versionId: RecordId,
  content: ItemContentJson,
  flowId: Type.Union([RecordId, Type.Null()]),
  editable: Type.Boolean({ description: 'A PUT of content now edits the draft (false in review or retired).' }),
  editCreatesVersion: Type.Boolean({ description: 'The latest version is approved: a content edit makes a new draft version.' }),
  actions: Type.Array(ReviewActionName, { description: 'Review actions the compiled flow allows the caller now (comment included when allowed).' }),
  updatedBy: UserStamp,
  createdOn: Timestamp,
});
export type ItemRecord = Static<typeof ItemRecord>;

export const ItemVersionSummary = Type.Object({
  versionId: RecordId,
  versionNumber: Type.Integer(),
  status: Type.Union([Type.Literal('draft'), Type.Literal('inReview'), Type.Literal('approved'), Type.Literal('retired'), Type.Literal('superseded')]),
  approvedOn: Type.Union([Timestamp, Type.Null()]),
  approvedBy: UserStamp,
  createdBy: UserStamp,
  createdOn: Timestamp,
  languages: Type.Array(Type.String()),
});
export const ItemVersion = Type.Object({ ...ItemVersionSummary.properties, itemId: RecordId, content: ItemContentJson });
export type ItemVersion = Static<typeof ItemVersion>;

/** One difference between two versions: a JSON path into the content and both values (absent = undefined → null). */
export const ItemDiff = Type.Object({
  itemId: RecordId,
  from: Type.Integer(),
  to: Type.Integer(),
  changes: Type.Array(
    Type.Object({
      path: Type.String({ description: 'e.g. variants.hi.stem, options[2].id, marking.wrong' }),
      change: Type.Union([Type.Literal('added'), Type.Literal('removed'), Type.Literal('changed')]),
      before: Type.Unknown(),
      after: Type.Unknown(),
    }),
  ),
});
export type ItemDiff = Static<typeof ItemDiff>;

export const ItemComment = Type.Object({
  commentId: RecordId,
  versionNumber: Type.Integer(),
  action: ReviewActionName,
  fromStatus: Type.Union([ItemStatus, Type.Null()]),
  toStatus: Type.Union([ItemStatus, Type.Null()]),
  text: Type.String(),
  by: UserStamp,
  at: Timestamp,
});
export type ItemComment = Static<typeof ItemComment>;

// ---- requests --------------------------------------------------------------------------------

/** The list: the paged search of spec §3 plus the item filters; totalCount counts every match. */
export const ItemSearchBody = Type.Object({
  keyword: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()], { description: 'Text search in stems (every language) and the code.' })),
  pageNumber: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  orderBy: Type.Optional(
    Type.Union([Type.Array(Type.String({ maxLength: 64 }), { maxItems: 5 }), Type.Null()], {
      description: 'Fields: updatedOn, createdOn, code, difficulty, status, kind (e.g. ["updatedOn desc"]).',
    }),
  ),
  kind: Type.Optional(Type.Union([ItemKindName, Type.Null()])),
  itemTypeId: Type.Optional(Type.Union([RecordId, Type.Null()])),
  categoryId: Type.Optional(Type.Union([RecordId, Type.Null()])),
  includeSubcategories: Type.Optional(Type.Boolean({ description: 'With categoryId: its whole subtree (default true).' })),
  difficulty: Type.Optional(Type.Union([Difficulty, Type.Null()])),
  status: Type.Optional(Type.Union([ItemStatus, Type.Null()])),
  language: Type.Optional(Type.Union([LanguageCode, Type.Null()], { description: 'With languagePresent: filter on this variant.' })),
  languagePresent: Type.Optional(Type.Union([Type.Boolean(), Type.Null()], { description: 'true: has the language variant; false: misses it.' })),
  authorId: Type.Optional(Type.Union([Uuid, Type.Null()])),
  duplicatesOnly: Type.Optional(Type.Boolean({ description: 'Only items with a possible duplicate.' })),
});
export type ItemSearchBody = Static<typeof ItemSearchBody>;

export const ItemPage = Type.Object({
  data: Type.Array(ItemSummary),
  currentPage: Type.Integer(),
  totalPages: Type.Integer(),
  totalCount: Type.Integer(),
  pageSize: Type.Integer(),
  hasPreviousPage: Type.Boolean(),
  hasNextPage: Type.Boolean(),
});
export type ItemPage = Static<typeof ItemPage>;

export const CreateItemBody = Type.Object(
  {
    code: Type.Optional(ItemCode),
    itemTypeId: Type.Optional(Type.Union([RecordId, Type.Null()], { description: 'A project item type; its kind must be the content kind.' })),
    categoryId: RecordId,
    difficulty: Difficulty,
    cognitiveLevel: Type.Optional(Type.Union([CognitiveLevel, Type.Null()])),
    content: ItemContentJson,
  },
  { additionalProperties: false },
);
export type CreateItemBody = Static<typeof CreateItemBody>;

/**
 * An edit. `content` edits the draft in place (status Draft), or makes a new draft version when
 * the latest is approved; in review or retired it is a 409. Category, difficulty and cognitive
 * level change the item record without a new version (not while retired).
 */
export const EditItemBody = Type.Object(
  {
    code: Type.Optional(ItemCode),
    categoryId: Type.Optional(RecordId),
    difficulty: Type.Optional(Difficulty),
    cognitiveLevel: Type.Optional(Type.Union([CognitiveLevel, Type.Null()])),
    content: Type.Optional(ItemContentJson),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
);
export type EditItemBody = Static<typeof EditItemBody>;

export const ReviewBody = Type.Object(
  {
    action: ReviewActionName,
    comment: Type.Optional(Type.String({ maxLength: 4000, description: 'Required for requestChanges and comment.' })),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
);
export type ReviewBody = Static<typeof ReviewBody>;
export const ReviewAnswer = Type.Object({ fromStatus: ItemStatus, toStatus: ItemStatus, record: ItemRecord });

export const BULK_ACTIONS = ['moveCategory', 'submit', 'retire'] as const;
export const BulkBody = Type.Object(
  {
    action: Type.Enum(BULK_ACTIONS),
    itemIds: Type.Array(RecordId, { minItems: 1, maxItems: 500, uniqueItems: true }),
    categoryId: Type.Optional(RecordId),
  },
  { additionalProperties: false },
);
export type BulkBody = Static<typeof BulkBody>;
export const BulkAnswer = Type.Object({
  succeeded: Type.Integer(),
  failed: Type.Integer(),
  results: Type.Array(
    Type.Object({ itemId: RecordId, ok: Type.Boolean(), status: Type.Union([ItemStatus, Type.Null()]), message: Type.Union([Type.String(), Type.Null()]) }),
  ),
});
export type BulkAnswer = Static<typeof BulkAnswer>;

/** Possible duplicates of a stem being written (authoring) or of a stored item. */
export const DuplicateQueryBody = Type.Object(
  {
    stem: Type.String({ minLength: 1, maxLength: 100_000, description: 'HTML or text of the stem.' }),
    excludeItemId: Type.Optional(Type.Union([RecordId, Type.Null()])),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 5 })),
  },
  { additionalProperties: false },
);
export const DuplicateList = Type.Array(DuplicateHint);

export const ScoreBody = Type.Object(
  {
    responses: ItemResponseJson,
    versionNumber: Type.Optional(Type.Integer({ minimum: 1, description: 'Score this version (default: the latest).' })),
  },
  { additionalProperties: false },
);
export type ScoreBody = Static<typeof ScoreBody>;
export const ScoreAnswer = Type.Object({
  score: Type.Union([Type.Number(), Type.Null()], { description: 'null: an essay awaiting a marker.' }),
  maxScore: Type.Number(),
  minScore: Type.Number(),
  outcome: Type.Union([Type.Literal('unanswered'), Type.Literal('correct'), Type.Literal('partial'), Type.Literal('wrong'), Type.Literal('awaitingMarking')]),
  needsHumanMarking: Type.Boolean(),
  template: Type.String({ description: 'match_correct, map_response, map_response_point, or marking (our marking rule, docs/decisions/0120).' }),
  versionNumber: Type.Integer(),
});
export type ScoreAnswer = Static<typeof ScoreAnswer>;

export const ExportBody = Type.Object(
  {
    itemIds: Type.Optional(Type.Array(RecordId, { minItems: 1, maxItems: 5000, uniqueItems: true })),
    categoryId: Type.Optional(RecordId),
    includeSubcategories: Type.Optional(Type.Boolean({ description: 'default true' })),
  },
  { additionalProperties: false, description: 'Either itemIds (a selection) or categoryId.' },
);
export type ExportBody = Static<typeof ExportBody>;

// ---- import jobs -----------------------------------------------------------------------------

export const IMPORT_STATES = ['queued', 'running', 'done', 'failed'] as const;
export const ImportJob = Type.Object({
  jobId: Uuid,
  format: Type.Union([Type.Literal('qti'), Type.Literal('xlsx')]),
  fileName: Type.String(),
  categoryId: RecordId,
  state: Type.Enum(IMPORT_STATES),
  total: Type.Integer({ description: 'Items (QTI) or rows (xlsx) found.' }),
  processed: Type.Integer(),
  created: Type.Integer(),
  failed: Type.Integer({ description: 'Refused rows / unmapped items.' }),
  filesCreated: Type.Integer({ description: 'Category files made from package media.' }),
  message: Type.Union([Type.String(), Type.Null()], { description: 'Why the whole file was refused, when it was.' }),
  problems: Type.Array(
    Type.Object({
      row: Type.Union([Type.Integer(), Type.Null()], { description: 'xlsx row number' }),
      identifier: Type.Union([Type.String(), Type.Null()], { description: 'QTI identifier' }),
      source: Type.Union([Type.String(), Type.Null()], { description: 'package path' }),
      reasons: Type.Array(Type.String()),
    }),
    { description: 'Every refused row or unmapped item with its reasons (first 1,000).' },
  ),
  createdItemIds: Type.Array(RecordId, { description: 'First 1,000 created items.' }),
  uploadedBy: UserStamp,
  createdOn: Timestamp,
  finishedOn: Type.Union([Timestamp, Type.Null()]),
});
export type ImportJob = Static<typeof ImportJob>;
export const ImportJobList = Type.Array(ImportJob);
