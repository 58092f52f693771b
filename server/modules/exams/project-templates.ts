import type { Queryable } from '#server/db/client.ts';
import type { ExportTemplateDraft } from '#machines/results/export-catalogue.ts';
import { addExportTemplates, seededExportTemplates } from '#server/modules/statistics/seeded-export-templates.ts';
import type { TemplateConfig } from './exams-schemas.ts';

/**
 * Project templates (docs/decisions/0091): a project's configuration — item types, the
 * category tree, flows and default paper rules — saved to start new projects from. Creating a
 * project from a template copies it; the project never follows later template edits.
 */

const itemReview = {
  stages: [
    { id: 'review', name: 'Peer review', permission: 'ItemReviewer' },
    { id: 'approval', name: 'Approval', permission: 'ProjectAdmin' },
  ],
  submitPermission: 'ItemAuthor',
  retirePermission: 'ProjectAdmin',
} as const;

const paperReview = {
  stages: [{ id: 'moderation', name: 'Moderation', permission: 'Moderator' }],
  submitPermission: 'PaperSetter',
  retirePermission: 'ProjectAdmin',
} as const;

/** The two templates every tenant starts with (issue 15). */
export const seededTemplates: Array<{ name: string; description: string; config: TemplateConfig }> = [
  {
    name: 'School board examination',
    description:
      'Written papers on paper, bilingual (English and Hindi): objective and long answers, no negative marking, two-stage item review and paper moderation.',
    config: {
      itemTypes: [
        { name: 'MCQ (1 mark)', kind: 'singleChoice', settings: { shuffle: false }, marking: { correct: 1, wrong: 0, unanswered: 0 } },
        {
          name: 'Fill in the blanks',
          kind: 'fillInBlanks',
          settings: { partial: { perCorrect: 1, perWrong: 0, wrongCancels: false }, caseSensitive: false },
          marking: { correct: 1, wrong: 0, unanswered: 0 },
        },
        { name: 'True or false', kind: 'trueFalse', settings: {}, marking: { correct: 1, wrong: 0, unanswered: 0 } },
        {
          name: 'Match the following',
          kind: 'matching',
          settings: { shuffle: true, partial: { perCorrect: 1, perWrong: 0, wrongCancels: false } },
          marking: { correct: 4, wrong: 0, unanswered: 0 },
        },
        { name: 'Short answer (2 marks)', kind: 'essay', settings: { wordLimit: 50 }, marking: { correct: 2, wrong: 0, unanswered: 0 } },
        { name: 'Long answer (5 marks)', kind: 'essay', settings: { wordLimit: 250 }, marking: { correct: 5, wrong: 0, unanswered: 0 } },
      ],
      categories: [
        { ref: 'math', name: 'Mathematics', parent: null },
        { ref: 'math-algebra', name: 'Algebra', parent: 'math' },
        { ref: 'math-geometry', name: 'Geometry', parent: 'math' },
        { ref: 'sci', name: 'Science', parent: null },
        { ref: 'sci-physics', name: 'Physics', parent: 'sci' },
        { ref: 'sci-chemistry', name: 'Chemistry', parent: 'sci' },
        { ref: 'sci-biology', name: 'Biology', parent: 'sci' },
      ],
      flows: [
        { name: 'Item review', recordKind: 'item', definition: { ...itemReview, stages: [...itemReview.stages] } },
        { name: 'Paper moderation', recordKind: 'paper', definition: { ...paperReview, stages: [...paperReview.stages] } },
      ],
      paperRules: { navigation: 'free', calculatorAllowed: false, mode: 'offline', durationMinutes: 180 },
      exportTemplates: seededExportTemplates,
    },
  },
  {
    name: 'Entrance test (CBT, negative marking)',
    description:
      'Computer-based entrance test: +4 / −1 single choice, JEE-style multiple correct, numeric answers without negative marks, section-by-section navigation.',
    config: {
      itemTypes: [
        { name: 'Single correct (+4/−1)', kind: 'singleChoice', settings: { shuffle: true }, marking: { correct: 4, wrong: -1, unanswered: 0 } },
        {
          name: 'Multiple correct (+4/+1 each/−2)',
          kind: 'multipleChoice',
          settings: { shuffle: true, partial: { perCorrect: 1, perWrong: 0, wrongCancels: true }, maxChoices: 0 },
          marking: { correct: 4, wrong: -2, unanswered: 0 },
        },
        {
          name: 'Numerical value (+4/0)',
          kind: 'numeric',
          settings: { tolerance: { mode: 'absolute', value: 0.01 } },
          marking: { correct: 4, wrong: 0, unanswered: 0 },
        },
      ],
      categories: [
        { ref: 'phy', name: 'Physics', parent: null },
        { ref: 'phy-mech', name: 'Mechanics', parent: 'phy' },
        { ref: 'phy-em', name: 'Electromagnetism', parent: 'phy' },
        { ref: 'chem', name: 'Chemistry', parent: null },
        { ref: 'chem-org', name: 'Organic chemistry', parent: 'chem' },
        { ref: 'chem-phys', name: 'Physical chemistry', parent: 'chem' },
        { ref: 'maths', name: 'Mathematics', parent: null },
        { ref: 'maths-calc', name: 'Calculus', parent: 'maths' },
        { ref: 'maths-alg', name: 'Algebra', parent: 'maths' },
      ],
      flows: [
        {
          name: 'Item review (two reviewers)',
          recordKind: 'item',
          definition: {
            stages: [
              { id: 'review', name: 'Peer review', permission: 'ItemReviewer' },
              { id: 'expert', name: 'Subject expert', permission: 'Moderator' },
              { id: 'approval', name: 'Approval', permission: 'ProjectAdmin' },
            ],
            submitPermission: 'ItemAuthor',
            retirePermission: 'ProjectAdmin',
          },
        },
        { name: 'Paper moderation', recordKind: 'paper', definition: { ...paperReview, stages: [...paperReview.stages] } },
      ],
      paperRules: { navigation: 'sectional', calculatorAllowed: false, mode: 'online', durationMinutes: 180 },
      exportTemplates: seededExportTemplates,
    },
  },
];

/** Inserts the seeded templates a tenant lacks (idempotent, called by the first-start seed). */
export async function seedProjectTemplates(tx: Queryable, tenantId: string): Promise<void> {
  for (const template of seededTemplates) {
    await tx.query(
      `insert into project_templates (tenant_id, name, description, config, is_system) values ($1, $2, $3, $4, true)
       on conflict (tenant_id, lower(name)) do nothing`,
      [tenantId, template.name, template.description, JSON.stringify(template.config)],
    );
  }
}

/** Copies a template's item types, categories and flows into a (new) project. */
export async function applyTemplateConfig(tx: Queryable, tenantId: string, projectId: number, config: TemplateConfig, userId: string): Promise<void> {
  for (const [index, type] of config.itemTypes.entries()) {
    await tx.query(
      `insert into item_types (tenant_id, project_id, name, kind, settings, marking, sort_order, updated_by) values ($1, $2, $3, $4, $5, $6, $7, $8)
       on conflict do nothing`,
      [tenantId, projectId, type.name, type.kind, JSON.stringify(type.settings), JSON.stringify(type.marking), index, userId],
    );
  }
  const ids = new Map<string, number>();
  for (const [index, category] of config.categories.entries()) {
    const parentId = category.parent === null ? null : (ids.get(category.parent) ?? null);
    const { rows } = await tx.query<{ id: number }>(
      `insert into categories (tenant_id, project_id, parent_id, name, sort_order, updated_by) values ($1, $2, $3, $4, $5, $6)
       on conflict do nothing returning id::int as id`,
      [tenantId, projectId, parentId, category.name, index, userId],
    );
    if (rows[0]) ids.set(category.ref, rows[0].id);
  }
  for (const flow of config.flows) {
    await tx.query(
      `insert into flows (tenant_id, project_id, name, record_kind, definition, updated_by) values ($1, $2, $3, $4, $5, $6) on conflict do nothing`,
      [tenantId, projectId, flow.name, flow.recordKind, JSON.stringify(flow.definition), userId],
    );
  }
  // A template's export templates name no record of its own project (filters are per project): they start without filters.
  await addExportTemplates(
    tx,
    tenantId,
    projectId,
    (config.exportTemplates ?? []).map((t) => ({ ...t, filters: {} }) as ExportTemplateDraft),
    userId,
  );
}

const defaultPaperRules: TemplateConfig['paperRules'] = { navigation: 'free', calculatorAllowed: false, mode: 'online', durationMinutes: 180 };

/** A project's current configuration, as a template carries it. */
export async function captureTemplateConfig(db: Queryable, projectId: number, paperRules = defaultPaperRules): Promise<TemplateConfig> {
  const [types, categories, flows] = await Promise.all([
    db.query<TemplateConfig['itemTypes'][number]>(
      `select name, kind, settings, marking from item_types where project_id = $1 and is_active order by sort_order, id`,
      [projectId],
    ),
    db.query<{ id: number; parent_id: number | null; name: string }>(
      `with recursive tree as (
         select id, parent_id, name, sort_order, array[sort_order, id::int] as path from categories
         where project_id = $1 and parent_id is null and not is_retired
         union all
         select c.id, c.parent_id, c.name, c.sort_order, t.path || array[c.sort_order, c.id::int] from categories c
         join tree t on c.parent_id = t.id where not c.is_retired
       ) select id::int as id, parent_id::int as parent_id, name from tree order by path`,
      [projectId],
    ),
    db.query<TemplateConfig['flows'][number]>(
      `select name, record_kind as "recordKind", definition from flows where project_id = $1 and is_active order by id`,
      [projectId],
    ),
  ]);
  const exportTemplates = await db.query<NonNullable<TemplateConfig['exportTemplates']>[number]>(
    `select name, record_kind as "recordKind", file_type as "fileType", columns, '{}'::jsonb as filters from export_templates where project_id = $1 order by lower(name) limit 20`,
    [projectId],
  );
  return {
    itemTypes: types.rows,
    categories: categories.rows.map((c) => ({ ref: `c${c.id}`, name: c.name, parent: c.parent_id === null ? null : `c${c.parent_id}` })),
    flows: flows.rows,
    paperRules,
    exportTemplates: exportTemplates.rows,
  };
}
