import { beforeAll, describe, expect, it } from 'vitest';
import { seededSupportGroups } from '#server/db/seed.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, createSignedInUser, type TestUser } from '#tests/setup/test-users.ts';

describeEachDatabase('support groups API', (get) => {
  let admin: TestUser;
  let agent: TestUser;
  let candidate: TestUser;
  beforeAll(async () => {
    const { app } = get();
    admin = await createSignedInUser(app, { roles: ['SupportAdmin'] });
    agent = await createSignedInUser(app, { roles: ['SupportAgent'] });
    candidate = await createSignedInUser(app, { roles: ['Candidate'] });
  });

  describe('GET /api/v1/supportgroup', () => {
    it('should list the seeded groups first, in their order, to any signed-in user', async () => {
      const res = await get().app.inject({ method: 'GET', url: '/api/v1/supportgroup', headers: as(candidate) });
      expect(res.statusCode).toBe(200);
      expect(
        res
          .json()
          .slice(0, 4)
          .map((g: { name: string }) => g.name),
      ).toEqual(seededSupportGroups.map((g) => g.name));
    });

    it('should show inactive groups only to group managers', async () => {
      const res = await get().app.inject({ method: 'GET', url: '/api/v1/supportgroup?includeInactive=true', headers: as(candidate) });
      expect(res.statusCode).toBe(403);
    });
  });

  describe('managing groups', () => {
    it('should create, rename, deactivate and reactivate a group', async () => {
      const { app } = get();
      const created = await app.inject({
        method: 'POST',
        url: '/api/v1/supportgroup',
        headers: as(admin),
        payload: { name: 'Payments', description: 'Fees and refunds' },
      });
      expect(created.statusCode).toBe(201);
      const group = created.json();
      expect(group).toMatchObject({ name: 'Payments', description: 'Fees and refunds', isActive: true, memberCount: 0 });
      const duplicate = await app.inject({ method: 'POST', url: '/api/v1/supportgroup', headers: as(admin), payload: { name: 'Payments' } });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json().messages).toEqual(['A support group named "Payments" already exists.']);
      const renamed = await app.inject({
        method: 'PUT',
        url: `/api/v1/supportgroup/${group.supportGroupId}`,
        headers: as(admin),
        payload: { name: 'Fees & Refunds', isActive: false },
      });
      expect(renamed.json()).toMatchObject({ name: 'Fees & Refunds', isActive: false });
      const visible = await app.inject({ method: 'GET', url: '/api/v1/supportgroup', headers: as(candidate) });
      expect(visible.json().map((g: { name: string }) => g.name)).not.toContain('Fees & Refunds');
      const all = await app.inject({ method: 'GET', url: '/api/v1/supportgroup?includeInactive=true', headers: as(admin) });
      expect(all.json().map((g: { name: string }) => g.name)).toContain('Fees & Refunds');
      const back = await app.inject({ method: 'PUT', url: `/api/v1/supportgroup/${group.supportGroupId}`, headers: as(admin), payload: { isActive: true } });
      expect(back.json().isActive).toBe(true);
    });

    it('should refuse managers-only calls to agents and candidates', async () => {
      const { app } = get();
      expect((await app.inject({ method: 'POST', url: '/api/v1/supportgroup', headers: as(agent), payload: { name: 'Nope' } })).statusCode).toBe(403);
      expect((await app.inject({ method: 'PUT', url: '/api/v1/supportgroup/1/members', headers: as(candidate), payload: { userIds: [] } })).statusCode).toBe(
        403,
      );
      expect((await app.inject({ method: 'GET', url: '/api/v1/supportgroup/999999/members', headers: as(admin) })).statusCode).toBe(404);
    });

    it('should set the members of a group to agents only', async () => {
      const { app } = get();
      const second = await createSignedInUser(app, { roles: ['SupportAgent'] });
      const res = await app.inject({ method: 'PUT', url: '/api/v1/supportgroup/2/members', headers: as(admin), payload: { userIds: [agent.id, second.id] } });
      expect(res.statusCode).toBe(200);
      expect(
        res
          .json()
          .map((m: { userId: string }) => m.userId)
          .sort(),
      ).toEqual([agent.id, second.id].sort());
      const refused = await app.inject({
        method: 'PUT',
        url: '/api/v1/supportgroup/2/members',
        headers: as(admin),
        payload: { userIds: [agent.id, candidate.id] },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors.userIds).toEqual([`${candidate.id} is not an active support agent of this tenant.`]);
      const mine = await app.inject({ method: 'GET', url: '/api/v1/supportgroup/mine', headers: as(agent) });
      expect(mine.json().map((g: { supportGroupId: number }) => g.supportGroupId)).toEqual([2]);
      const agents = await app.inject({ method: 'GET', url: '/api/v1/supportgroup/agents', headers: as(admin) });
      expect(agents.json().find((a: { userId: string }) => a.userId === agent.id).supportGroupIds).toEqual([2]);
      const narrowed = await app.inject({ method: 'PUT', url: '/api/v1/supportgroup/2/members', headers: as(admin), payload: { userIds: [second.id] } });
      expect(narrowed.json().map((m: { userId: string }) => m.userId)).toEqual([second.id]);
    });
  });
});
