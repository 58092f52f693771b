import { Type, type Static } from 'typebox';
import { examStatusNames } from '#machines/exams/exam-status.machine.ts';
import { ItemTypeKind, ItemTypeSettings, Marking } from '#machines/exams/item-types.ts';
import { ExamPermissionName, ProjectStatusName, RecordId, Timestamp, UserStamp, Uuid } from '#machines/exams/project-record.ts';
import { STAGE_ID_PATTERN } from '#machines/exams/review-flow.machine.ts';
import { PagedResult, searchRequestProperties } from '#server/lib/paging.ts';
import { CreateExportTemplateBody, ExportFiltersSchema } from '#server/modules/statistics/statistics-schemas.ts';

/** Request and answer shapes of the exam workspace (issue 15); they are also its OpenAPI. */

export { RecordId };
export const IdParams = Type.Object({ id: RecordId });
const Version = Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'The version the edit was made on (or send If-Match).' });

export const CONTENT_LANGUAGES = ['en', 'hi', 'gu', 'fr', 'es'] as const;
export const ContentLanguage = Type.Enum(CONTENT_LANGUAGES);
export const Languages = Type.Array(ContentLanguage, {
  minItems: 1,
  maxItems: 5,
  uniqueItems: true,
  description: 'Languages of content (en, hi, gu, fr, es).',
});
export const Code = Type.String({
  minLength: 1,
  maxLength: 32,
  pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$',
  description: 'Short code, unique per tenant (projects) or per project (exams): letters, digits, _ . -',
});
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Description = Type.String({ maxLength: 2000 });
export { ExamPermissionName, ProjectStatusName };
export const ExamStatusName = Type.Enum(examStatusNames);

// ---- flows -----------------------------------------------------------------------------------

export const FlowDefinitionSchema = Type.Object(
  {
    stages: Type.Array(
      Type.Object(
        { id: Type.String({ pattern: STAGE_ID_PATTERN }), name: Type.String({ minLength: 1, maxLength: 100 }), permission: ExamPermissionName },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 10 },
    ),
    submitPermission: ExamPermissionName,
    retirePermission: ExamPermissionName,
  },
  { additionalProperties: false },
);
export const RecordKind = Type.Union([Type.Literal('item'), Type.Literal('paper')]);

// ---- templates -------------------------------------------------------------------------------

export const TemplateConfig = Type.Object(
  {
    itemTypes: Type.Array(Type.Object({ name: Name, kind: ItemTypeKind, settings: ItemTypeSettings, marking: Marking }, { additionalProperties: false }), {
      maxItems: 50,
    }),
    categories: Type.Array(
      Type.Object(
        {
          ref: Type.String({ minLength: 1, maxLength: 40, description: 'Key of this category within the template' }),
          name: Name,
          parent: Type.Union([Type.String({ minLength: 1, maxLength: 40 }), Type.Null()]),
        },
        { additionalProperties: false },
      ),
      { maxItems: 500, description: 'The tree, parents before children' },
    ),
    flows: Type.Array(Type.Object({ name: Name, recordKind: RecordKind, definition: FlowDefinitionSchema }, { additionalProperties: false }), { maxItems: 20 }),
    paperRules: Type.Object(
      {
        navigation: Type.Union([Type.Literal('free'), Type.Literal('sectional')]),
        calculatorAllowed: Type.Boolean(),
        mode: Type.Union([Type.Literal('online'), Type.Literal('offline')]),
        durationMinutes: Type.Integer({ minimum: 1, maximum: 1440 }),
      },
      { additionalProperties: false },
    ),
    exportTemplates: Type.Optional(
      Type.Array(Type.Object({ ...CreateExportTemplateBody.properties, filters: ExportFiltersSchema }, { additionalProperties: false }), {
        maxItems: 20,
        description: 'Export templates a new project starts with (issue 20)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type TemplateConfig = Static<typeof TemplateConfig>;

export const ProjectTemplate = Type.Object({
  templateId: RecordId,
  name: Type.String(),
  description: Type.String(),
  isSystem: Type.Boolean(),
  config: TemplateConfig,
  version: Type.Integer(),
  createdOn: Timestamp,
});
export const SaveTemplateBody = Type.Object({ name: Name, description: Type.Optional(Description) }, { additionalProperties: false });

// ---- projects --------------------------------------------------------------------------------

export { ProjectDetail, ProjectSummary } from '#machines/exams/project-record.ts';

export const ProjectSearchBody = Type.Object({
  ...searchRequestProperties,
  status: Type.Optional(Type.Union([ProjectStatusName, Type.Null()])),
  includeArchived: Type.Optional(Type.Boolean({ description: 'Managers only: list archived projects too.' })),
});
export type ProjectSearchBody = Static<typeof ProjectSearchBody>;

export const CreateProjectBody = Type.Object(
  {
    code: Code,
    name: Name,
    description: Type.Optional(Description),
    languages: Type.Optional(Languages),
    instituteId: Type.Optional(Type.Union([Uuid, Type.Null()])),
    templateId: Type.Optional(
      Type.Union([RecordId, Type.Null()], { description: 'Start from this template: its item types, categories and flows are copied.' }),
    ),
  },
  { additionalProperties: false },
);
export const EditProjectBody = Type.Object(
  {
    code: Type.Optional(Code),
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    languages: Type.Optional(Languages),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
);

const projectEvents = ['project.startSetup', 'project.activate', 'project.close', 'project.reopen', 'project.archive', 'project.restore'] as const;
export const ProjectStatusBody = Type.Object(
  {
    event: Type.Enum(projectEvents),
    reason: Type.Optional(Type.String({ maxLength: 2000, description: 'Why (kept in the project history).' })),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
);
export const TransitionAnswer = (record: ReturnType<typeof Type.Object>) => Type.Object({ fromStatus: Type.String(), toStatus: Type.String(), record });

export const HistoryEntry = Type.Object({
  event: Type.String(),
  fromStatus: Type.Union([Type.String(), Type.Null()]),
  toStatus: Type.Union([Type.String(), Type.Null()]),
  by: UserStamp,
  reason: Type.Union([Type.String(), Type.Null()]),
  at: Timestamp,
});
/** A line of a project's or an exam's history: a status change, or an edit naming what it changed (docs/decisions/0166). */
export const RecordHistoryEntry = Type.Object({
  ...HistoryEntry.properties,
  fields: Type.Array(Type.String(), { description: 'What an edit changed (empty for status changes).' }),
});
export type RecordHistoryEntry = Static<typeof RecordHistoryEntry>;
export const HistoryQuery = Type.Object(
  {
    pageNumber: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  },
  { additionalProperties: false },
);
export type HistoryQuery = Static<typeof HistoryQuery>;

// ---- exams -----------------------------------------------------------------------------------

export const PassRules = Type.Object(
  {
    passPercent: Type.Number({ minimum: 0, maximum: 100 }),
    sectionMinimumPercent: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export const GradeBands = Type.Array(
  Type.Object({ grade: Type.String({ minLength: 1, maxLength: 10 }), minPercent: Type.Number({ minimum: 0, maximum: 100 }) }, { additionalProperties: false }),
  { maxItems: 20, description: 'Highest band first; minPercent strictly decreasing.' },
);

export const Exam = Type.Object({
  examId: RecordId,
  projectId: RecordId,
  code: Type.String(),
  name: Type.String(),
  description: Type.String(),
  status: ExamStatusName,
  passRules: PassRules,
  gradeBands: GradeBands,
  version: Type.Integer(),
  createdOn: Timestamp,
  updatedOn: Timestamp,
  updatedBy: UserStamp,
  actions: Type.Array(Type.String()),
});
export const ExamSearchBody = Type.Object({ ...searchRequestProperties, status: Type.Optional(Type.Union([ExamStatusName, Type.Null()])) });
export type ExamSearchBody = Static<typeof ExamSearchBody>;
export const CreateExamBody = Type.Object(
  { code: Code, name: Name, description: Type.Optional(Description), passRules: Type.Optional(PassRules), gradeBands: Type.Optional(GradeBands) },
  { additionalProperties: false },
);
export const EditExamBody = Type.Object(
  {
    code: Type.Optional(Code),
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    passRules: Type.Optional(PassRules),
    gradeBands: Type.Optional(GradeBands),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
);
const examEvents = ['exam.schedule', 'exam.unschedule', 'exam.start', 'exam.end', 'exam.publishResults', 'exam.withdrawResults', 'exam.close'] as const;
export const ExamStatusBody = Type.Object(
  { event: Type.Enum(examEvents), reason: Type.Optional(Type.String({ maxLength: 2000 })), version: Type.Optional(Version) },
  { additionalProperties: false },
);
export const MyExamPermissions = Type.Object({
  examId: RecordId,
  projectId: RecordId,
  paperId: Type.Union([RecordId, Type.Null()]),
  permissions: Type.Array(ExamPermissionName),
  tenantManager: Type.Boolean({ description: 'Holds Projects.Manage or Exams.Manage in this scope.' }),
  actions: Type.Array(Type.String(), { description: 'Exam status events the caller may send now.' }),
});

// ---- grants (the team) -----------------------------------------------------------------------

export const Grant = Type.Object({
  grantId: RecordId,
  userId: Uuid,
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.String(),
  projectId: RecordId,
  examId: Type.Union([RecordId, Type.Null()]),
  examName: Type.Union([Type.String(), Type.Null()]),
  permission: ExamPermissionName,
  grantedOn: Timestamp,
});
export const GrantSearchBody = Type.Object({
  ...searchRequestProperties,
  userId: Type.Optional(Type.Union([Uuid, Type.Null()])),
  examId: Type.Optional(Type.Union([RecordId, Type.Null()])),
  permission: Type.Optional(Type.Union([ExamPermissionName, Type.Null()])),
});
export const CreateGrantBody = Type.Object(
  { userId: Uuid, examId: Type.Optional(Type.Union([RecordId, Type.Null()], { description: 'null: on the whole project' })), permission: ExamPermissionName },
  { additionalProperties: false },
);

// ---- item types, categories, flows -------------------------------------------------------------

export const ItemType = Type.Object({
  itemTypeId: RecordId,
  name: Type.String(),
  kind: ItemTypeKind,
  settings: ItemTypeSettings,
  marking: Marking,
  isActive: Type.Boolean(),
  sortOrder: Type.Integer(),
  version: Type.Integer(),
});
export const CreateItemTypeBody = Type.Object(
  {
    name: Name,
    kind: ItemTypeKind,
    settings: Type.Optional(ItemTypeSettings),
    marking: Marking,
    sortOrder: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
  },
  { additionalProperties: false },
);
export const EditItemTypeBody = Type.Object(
  {
    name: Type.Optional(Name),
    settings: Type.Optional(ItemTypeSettings),
    marking: Type.Optional(Marking),
    isActive: Type.Optional(Type.Boolean()),
    sortOrder: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
);

export const Category = Type.Object({
  categoryId: RecordId,
  parentId: Type.Union([RecordId, Type.Null()]),
  name: Type.String(),
  sortOrder: Type.Integer(),
  isRetired: Type.Boolean(),
  fileCount: Type.Integer(),
  version: Type.Integer(),
});
export const CreateCategoryBody = Type.Object(
  { name: Name, parentId: Type.Optional(Type.Union([RecordId, Type.Null()])), sortOrder: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })) },
  { additionalProperties: false },
);
export const EditCategoryBody = Type.Object(
  { name: Type.Optional(Name), isRetired: Type.Optional(Type.Boolean()), version: Type.Optional(Version) },
  { additionalProperties: false },
);
export const MoveCategoryBody = Type.Object(
  {
    parentId: Type.Union([RecordId, Type.Null()], { description: 'The new parent; null for a top-level category' }),
    sortOrder: Type.Integer({ minimum: 0, maximum: 100_000 }),
    version: Type.Optional(Version),
  },
  { additionalProperties: false },
);

export const Flow = Type.Object({
  flowId: RecordId,
  name: Type.String(),
  recordKind: RecordKind,
  definition: FlowDefinitionSchema,
  isActive: Type.Boolean(),
  version: Type.Integer(),
  states: Type.Array(Type.String(), { description: 'The compiled machine’s states in order.' }),
});
export const CreateFlowBody = Type.Object({ name: Name, recordKind: RecordKind, definition: FlowDefinitionSchema }, { additionalProperties: false });
export const EditFlowBody = Type.Object(
  { name: Type.Optional(Name), definition: Type.Optional(FlowDefinitionSchema), isActive: Type.Optional(Type.Boolean()), version: Type.Optional(Version) },
  { additionalProperties: false },
);

export const Deleted = Type.Object({ deleted: Type.Boolean() });
export const PreviewFlowBody = Type.Object({ definition: FlowDefinitionSchema }, { additionalProperties: false });
export const FlowPreview = Type.Object({
  version: Type.Integer({ description: 'The version of the flow the preview was made against' }),
  stageMoves: Type.Array(
    Type.Object({
      from: Type.String(),
      fromName: Type.String(),
      to: Type.String(),
      toName: Type.String({ description: 'The name of the stage in the new definition, or Draft' }),
      records: Type.Integer({ description: 'Records standing in the removed stage now' }),
    }),
  ),
  affectedRecords: Type.Integer(),
});
export { PagedResult };
