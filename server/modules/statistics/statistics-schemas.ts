import { Type, type Static } from 'typebox';
import { EXPORT_FILE_TYPES, EXPORT_FORMATS, EXPORT_HEADER_LANGUAGES, EXPORT_KINDS, EXPORT_LIMITS } from '#machines/results/export-catalogue.ts';
import { RecordId, Timestamp, UserStamp, Uuid } from '#machines/exams/project-record.ts';

/** Request and answer shapes of item statistics and export templates (issue 20); also their OpenAPI. */

const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
const Version = Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'The version the edit was made on (or send If-Match).' });

export const ItemFlag = Type.Union([Type.Literal('negativeDiscrimination'), Type.Literal('distractorOverKey'), Type.Literal('noVariance')], {
  description:
    'negativeDiscrimination: point-biserial below 0; distractorOverKey: a wrong option chosen more often than the key; noVariance: everyone scored the same.',
});

export const ItemStatisticsSchema = Type.Object({
  number: Type.Integer({ description: 'Question number in the first set that has the item.' }),
  versionId: Type.String(),
  itemId: Type.String(),
  kind: Type.String(),
  maxScore: Type.Number(),
  key: Type.Array(Type.String(), { description: 'The keyed options (choice kinds).' }),
  n: Type.Integer({ description: 'Deliveries with a marked answer to it.' }),
  facility: Type.Union([Type.Number(), Type.Null()], { description: 'Mean share of the marks earned (p-value for 0/1 items).' }),
  pointBiserial: NullableNumber,
  restCorrelation: NullableNumber,
  upperLowerIndex: Type.Union([Type.Number(), Type.Null()], { description: 'Facility of the top 27 % minus that of the bottom 27 %.' }),
  omittedRate: NullableNumber,
  distractors: Type.Array(
    Type.Object({ optionId: Type.String(), correct: Type.Boolean(), count: Type.Integer(), upper: Type.Integer(), lower: Type.Integer() }),
  ),
  flags: Type.Array(ItemFlag),
});

export const PaperStatisticsSchema = Type.Object({
  n: Type.Integer(),
  items: Type.Integer(),
  mean: NullableNumber,
  sd: NullableNumber,
  min: NullableNumber,
  max: NullableNumber,
  median: NullableNumber,
  reliability: NullableNumber,
  reliabilityKind: Type.Union([Type.Literal('KR-20'), Type.Literal('alpha')]),
  sem: NullableNumber,
  maxTotal: Type.Number(),
  distribution: Type.Array(Type.Object({ from: Type.Number(), to: Type.Number(), count: Type.Integer() })),
});

export const PaperStatisticsAnswer = Type.Object({
  paperId: Type.Integer(),
  code: Type.String(),
  title: Type.String(),
  deliveries: Type.Integer({ description: 'Finished deliveries (Submitted or TimeUp) the figures are computed from.' }),
  awaitingMarking: Type.Integer({ description: 'Answers not yet marked by a person (counted as not marked).' }),
  computedAt: Timestamp,
  paper: PaperStatisticsSchema,
  items: Type.Array(ItemStatisticsSchema),
  flagged: Type.Integer({ description: 'Items with a negative discrimination or a distractor chosen more than the key.' }),
});
export type PaperStatisticsAnswer = Static<typeof PaperStatisticsAnswer>;

export const StatisticsQuery = Type.Object(
  { bins: Type.Optional(Type.Integer({ minimum: 2, maximum: 50, description: 'Bins of the score distribution (default 10).' })) },
  { additionalProperties: false },
);

// ---- export templates ----------------------------------------------------------------------------

const HeaderText = Type.String({ maxLength: EXPORT_LIMITS.header });
export const ExportColumnSchema = Type.Object(
  {
    field: Type.String({ minLength: 1, maxLength: 60, description: "A field of the kind's catalogue (machines/results/export-catalogue.ts)." }),
    headers: Type.Object(
      { en: HeaderText, ...Object.fromEntries(EXPORT_HEADER_LANGUAGES.filter((l) => l !== 'en').map((l) => [l, Type.Optional(HeaderText)])) },
      { additionalProperties: false, description: 'The column header per language; en is required, a missing language uses en.' },
    ),
    format: Type.Enum(EXPORT_FORMATS),
  },
  { additionalProperties: false },
);

export const ExportFiltersSchema = Type.Object(
  {
    examId: Type.Optional(RecordId),
    paperId: Type.Optional(RecordId),
    seasonId: Type.Optional(RecordId),
    centerId: Type.Optional(RecordId),
    status: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  },
  { additionalProperties: false },
);

const TemplateName = Type.String({ minLength: 1, maxLength: EXPORT_LIMITS.name });
const Columns = Type.Array(ExportColumnSchema, { minItems: 1, maxItems: EXPORT_LIMITS.columns });

export const CreateExportTemplateBody = Type.Object(
  {
    name: TemplateName,
    recordKind: Type.Enum(EXPORT_KINDS),
    fileType: Type.Enum(EXPORT_FILE_TYPES),
    columns: Columns,
    filters: Type.Optional(ExportFiltersSchema),
  },
  { additionalProperties: false },
);
export type CreateExportTemplateBody = Static<typeof CreateExportTemplateBody>;

export const EditExportTemplateBody = Type.Object(
  {
    version: Type.Optional(Version),
    name: Type.Optional(TemplateName),
    fileType: Type.Optional(Type.Enum(EXPORT_FILE_TYPES)),
    columns: Type.Optional(Columns),
    filters: Type.Optional(ExportFiltersSchema),
  },
  { additionalProperties: false, description: 'The record kind is fixed once created (its columns name its fields).' },
);

export const ExportTemplate = Type.Object({
  exportTemplateId: Type.Integer(),
  name: Type.String(),
  recordKind: Type.Enum(EXPORT_KINDS),
  fileType: Type.Enum(EXPORT_FILE_TYPES),
  columns: Type.Array(ExportColumnSchema),
  filters: ExportFiltersSchema,
  version: Type.Integer(),
  updatedAt: Timestamp,
  updatedBy: UserStamp,
});

export const RunExportBody = Type.Object(
  {
    filters: Type.Optional(ExportFiltersSchema),
    language: Type.Optional(Type.Enum(EXPORT_HEADER_LANGUAGES, { description: 'The headers’ language (default en).' })),
  },
  { additionalProperties: false, description: 'Filters given here replace the template’s defaults of the same name.' },
);

export const ExportRun = Type.Object({
  runId: Uuid,
  exportTemplateId: Type.Union([Type.Integer(), Type.Null()]),
  templateName: Type.String(),
  state: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('finished'), Type.Literal('failed')]),
  totalRows: Type.Integer(),
  rowsWritten: Type.Integer(),
  message: Type.Union([Type.String(), Type.Null()]),
  fileName: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
  finishedAt: Type.Union([Timestamp, Type.Null()]),
});

export const RunParams = Type.Object({ runId: Uuid });
export const Deleted = Type.Object({ deleted: Type.Boolean() });
