import { Type, type Static } from 'typebox';
import { examPermissionNames } from '../permissions.ts';
import { projectStatusNames } from './project-status.machine.ts';

/**
 * The project record as the API answers it (EXAMS.md §2), in one place: the server validates
 * and documents its answers with these schemas (server/modules/exams/exams-schemas.ts) and the
 * client types its calls with their `Static` types (src/features/projects/api), so the two can
 * no longer drift apart.
 */

export const RecordId = Type.Integer({ minimum: 1, maximum: 999_999_999_999_999 });
export const Uuid = Type.String({ format: 'uuid' });
export const Timestamp = Type.String({ format: 'date-time' });
export const ProjectStatusName = Type.Enum(projectStatusNames);
export const ExamPermissionName = Type.Enum(examPermissionNames);
/** Who changed a record last (null: nobody known). */
export const UserStamp = Type.Union([Type.Object({ userId: Uuid, name: Type.String() }), Type.Null()]);

/** A project in a list (the paged search of spec §3). */
export const ProjectSummary = Type.Object({
  projectId: RecordId,
  code: Type.String(),
  name: Type.String(),
  description: Type.String(),
  instituteId: Type.Union([Uuid, Type.Null()]),
  languages: Type.Array(Type.String()),
  status: ProjectStatusName,
  templateId: Type.Union([RecordId, Type.Null()]),
  examCount: Type.Integer(),
  version: Type.Integer(),
  createdOn: Timestamp,
  updatedOn: Timestamp,
  actions: Type.Array(Type.String(), {
    description: 'Status and configuration events the caller may send now (project-status machine); the lists offer exactly these.',
  }),
});
export type ProjectSummary = Static<typeof ProjectSummary>;

/** One project with what the caller needs to work in it. */
export const ProjectDetail = Type.Object({
  ...ProjectSummary.properties,
  updatedBy: UserStamp,
  setup: Type.Object({ itemTypes: Type.Integer(), categories: Type.Integer(), flows: Type.Integer(), team: Type.Integer(), exams: Type.Integer() }),
  actions: Type.Array(Type.String(), { description: 'Status events the caller may send now (project-status machine).' }),
  myPermissions: Type.Array(ExamPermissionName, { description: 'The caller’s exam permissions on the project (all for tenant managers).' }),
  canConfigure: Type.Boolean({ description: 'The caller may change item types, categories, flows, exams and the team now.' }),
});
export type ProjectDetail = Static<typeof ProjectDetail>;
