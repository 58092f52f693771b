import { describe, expect, it } from 'vitest';
import { defaultConfig } from '#src/lib/config.ts';
import { createHttpClients } from '#src/lib/http/clients.ts';
import { recordIdOf, workspaceHeaders, type WorkspaceIds } from '#src/lib/http/headers.ts';
import { fakeServer, lowerKeys } from './support/fake-server.ts';

const none: WorkspaceIds = { projectId: null, examId: null, paperId: null };

describe('workspace context headers (spec §3)', () => {
  it('should name the project on project calls and the exam with its paper on paper calls', () => {
    expect(workspaceHeaders({ projectId: 4, examId: 9, paperId: null }, 'project')).toEqual({ ProjectId: '4' });
    expect(workspaceHeaders({ projectId: 4, examId: 9, paperId: null }, 'paper')).toEqual({ ProjectId: '4', ExamId: '9' });
    expect(workspaceHeaders({ projectId: 4, examId: 42, paperId: 7 }, 'paper')).toEqual({ ProjectId: '4', ExamId: '42&7' });
    expect(workspaceHeaders({ projectId: 4, examId: 42, paperId: 7 }, undefined)).toEqual({ ProjectId: '4', ExamId: '42&7' });
    expect(workspaceHeaders({ projectId: 4, examId: 42, paperId: 7 }, 'global')).toEqual({});
    expect(workspaceHeaders(none, 'paper')).toEqual({});
  });

  it('should read a record id from its own field or id, refusing anything that is not a positive integer', () => {
    expect(recordIdOf({ projectId: 4 }, 'projectId')).toBe(4);
    expect(recordIdOf({ id: '12' }, 'projectId')).toBe(12);
    expect(recordIdOf({ projectId: -1 }, 'projectId')).toBeNull();
    expect(recordIdOf({ projectId: '4; drop' }, 'projectId')).toBeNull();
    expect(recordIdOf(null, 'projectId')).toBeNull();
  });

  function clientsWith(ids: WorkspaceIds, token: string | null = 'token-1') {
    const server = fakeServer(() => ({ status: 200, data: {} }));
    const clients = createHttpClients(defaultConfig, {
      adapter: server.adapter,
      auth: () => ({ getAccessToken: () => token, refreshSession: async () => 'x', onSessionExpired: () => undefined }),
      language: () => 'en-IN',
      now: () => new Date('2026-11-25T07:00:00Z'),
      showError: () => undefined,
      banner: { show: () => undefined, clear: () => undefined, unreachable: () => undefined },
      workspace: () => ids,
    });
    return { clients, server };
  }

  it('should send the selected slices on every signed-in call, and nothing on global or anonymous calls', async () => {
    const { clients, server } = clientsWith({ projectId: 4, examId: 42, paperId: 7 });
    await clients.examService.get('/v1/exam/mypermissions', { workspace: 'paper' });
    await clients.projectService.post('/v1/exam/search', {}, { workspace: 'project' });
    await clients.projectService.post('/v1/project/search', {}, { workspace: 'global' });
    await clients.userService.post('/tokens', {}, { anonymous: true });
    const [paper, project, global, anonymous] = server.seen.map((r) => lowerKeys(r.headers));
    expect([paper.projectid, paper.examid]).toEqual(['4', '42&7']);
    expect([project.projectid, project.examid]).toEqual(['4', undefined]);
    expect([global.projectid, global.examid]).toEqual([undefined, undefined]);
    expect([anonymous.projectid, anonymous.examid]).toEqual([undefined, undefined]);
  });

  it('should let a call name its project itself (before it is selected), but never on a global call', async () => {
    const { clients, server } = clientsWith({ projectId: 4, examId: null, paperId: null });
    await clients.projectService.get('/v1/project/8', { workspace: 'project', headers: { ProjectId: '8' } });
    await clients.projectService.get('/v1/projecttemplate', { workspace: 'global', headers: { ProjectId: '8' } });
    expect(lowerKeys(server.seen[0].headers).projectid).toBe('8');
    expect(lowerKeys(server.seen[1].headers).projectid).toBeUndefined();
  });

  it('should send no context without a session', async () => {
    const { clients, server } = clientsWith({ projectId: 4, examId: 9, paperId: null }, null);
    await clients.projectService.get('/v1/flow', { workspace: 'project' }).catch(() => undefined);
    expect(lowerKeys(server.seen[0].headers).projectid).toBeUndefined();
  });
});
