import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { ProjectDetail, ProjectSummary, RecordId, Timestamp, UserStamp, Uuid } from '#machines/exams/project-record.ts';

const summary: ProjectSummary = {
  projectId: 12,
  code: 'NEET-25',
  name: 'NEET 2025',
  description: 'National entrance test',
  instituteId: '3f1c2a4e-8b7d-4c1e-9f2a-1b2c3d4e5f60',
  languages: ['en', 'hi'],
  status: 'Setup',
  templateId: null,
  examCount: 2,
  version: 5,
  createdOn: '2025-01-10T09:00:00.000Z',
  updatedOn: '2025-02-01T17:30:00.000Z',
  actions: ['project.activate', 'project.edit'],
};

const detail: ProjectDetail = {
  ...summary,
  updatedBy: { userId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', name: 'Asha Rao' },
  setup: { itemTypes: 3, categories: 0, flows: 1, team: 4, exams: 2 },
  myPermissions: ['ProjectAdmin', 'Moderator'],
  canConfigure: true,
};

describe('project record schemas (what the API answers)', () => {
  it('should take a project of a list and one project with what the caller needs', () => {
    expect(Value.Check(ProjectSummary, summary)).toBe(true);
    expect(Value.Check(ProjectDetail, detail)).toBe(true);
  });

  it('should take a project without institute, without template and last changed by nobody known', () => {
    expect(Value.Check(ProjectSummary, { ...summary, instituteId: null, templateId: null })).toBe(true);
    expect(Value.Check(ProjectDetail, { ...detail, templateId: 4, updatedBy: null })).toBe(true);
  });

  it('should refuse a status outside the five of the project-status machine', () => {
    expect(Value.Check(ProjectSummary, { ...summary, status: 'Published' })).toBe(false);
  });

  it('should refuse a permission that is not an exam permission', () => {
    expect(Value.Check(ProjectDetail, { ...detail, myPermissions: ['ProjectAdmin', 'Wizard'] })).toBe(false);
  });

  it('should need the set-up counts and whether the caller may configure', () => {
    const { canConfigure: _c, ...withoutCanConfigure } = detail;
    expect(Value.Check(ProjectDetail, withoutCanConfigure)).toBe(false);
    expect(Value.Check(ProjectDetail, { ...detail, setup: { itemTypes: 3, categories: 0 } })).toBe(false);
  });

  it('should take record ids from 1, UUIDs and ISO timestamps only', () => {
    expect([0, 1, 1.5, 999_999_999_999_999, 1e15].map((id) => Value.Check(RecordId, id))).toEqual([false, true, false, true, false]);
    expect(Value.Check(Uuid, summary.instituteId)).toBe(true);
    expect(Value.Check(Uuid, 'project-12')).toBe(false);
    expect(Value.Check(Timestamp, summary.createdOn)).toBe(true);
    expect(Value.Check(Timestamp, '10 January 2025')).toBe(false);
    expect(Value.Check(UserStamp, { userId: 'someone', name: 'Asha Rao' })).toBe(false);
  });
});
