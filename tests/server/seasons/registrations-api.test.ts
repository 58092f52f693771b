import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { createSignedInUser, type TestUser } from '#tests/setup/test-users.ts';
import { call } from '../exams/workspace-kit.ts';
import { createSeason, openSeason, projectCall, seasonWorld, type SeasonWorld } from './seasons-kit.ts';

interface RegistrationAnswer {
  registrationId: number;
  status: string;
  rollNumber: string | null;
  seatNumber: number | null;
  center: { centerId: number; city: string; code: string } | null;
  accommodationStatus: string;
  actions: string[];
  version: number;
}

describeEachDatabase('registrations', (get) => {
  let world: SeasonWorld;
  let season: Awaited<ReturnType<typeof openSeason>>;
  beforeAll(async () => {
    world = await seasonWorld(get().app, get().db);
    season = await openSeason(get().app, world);
  });

  const candidate = () => createSignedInUser(get().app, { roles: ['Candidate'] });
  const register = (user: TestUser, over: Record<string, unknown> = {}) =>
    call(get().app, user, 'POST', '/api/v1/registration', {
      body: { seasonId: season.seasonId, examId: world.examId, seasonPaperIds: [season.seasonPaperId], medium: 'hi', preferredCity: 'surat', ...over },
    });
  const admin = (method: 'GET' | 'POST', url: string, body?: unknown, user: TestUser = world.manager) => projectCall(get().app, world, user, method, url, body);

  it('should list the open season to a candidate with its exam, papers, languages and cities', async () => {
    const res = await call(get().app, await candidate(), 'GET', '/api/v1/registration/open');
    expect(res.statusCode).toBe(200);
    const open = (
      res.json() as Array<{
        seasonId: number;
        languages: string[];
        cities: string[];
        exams: Array<{ examId: number; papers: Array<{ seasonPaperId: number }> }>;
      }>
    ).find((s) => s.seasonId === season.seasonId)!;
    expect(open.languages).toEqual(['en', 'hi']);
    expect(open.cities).toEqual(['Ahmedabad', 'Surat']);
    expect(open.exams).toMatchObject([{ examId: world.examId, papers: [{ seasonPaperId: season.seasonPaperId }] }]);
  });

  it('should refuse registration outside the window with the window’s dates', async () => {
    const planned = await createSeason(get().app, world, { registrationOpensAt: '2026-12-01T00:00:00.000Z', registrationClosesAt: '2027-01-15T00:00:00.000Z' });
    const res = await register(await candidate(), { seasonId: planned.seasonId });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      reason: 'outsideWindow',
      registrationOpensAt: '2026-12-01T00:00:00.000Z',
      registrationClosesAt: '2027-01-15T00:00:00.000Z',
    });
    expect(res.json().messages[0]).toContain('2026-12-01T00:00:00.000Z to 2027-01-15T00:00:00.000Z');
    // Open in status but the window is in the future.
    const future = await openSeason(get().app, world, [10], { registrationOpensAt: new Date(Date.now() + 86_400_000).toISOString() });
    const early = await register(await candidate(), { seasonId: future.seasonId, seasonPaperIds: [future.seasonPaperId] });
    expect(early.statusCode).toBe(409);
    expect(early.json().reason).toBe('outsideWindow');
  });

  it('should validate papers, medium and city with 400s, and refuse a second live registration', async () => {
    const user = await candidate();
    for (const [over, field] of [
      [{ medium: 'fr' }, 'medium'],
      [{ preferredCity: 'Pune' }, 'preferredCity'],
      [{ seasonPaperIds: [999999999] }, 'seasonPaperIds'],
      [{ accommodations: { extraTimePercent: 150 } }, 'extraTimePercent'],
    ] as const) {
      const res = await register(user, over);
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.body).toContain(field);
    }
    expect((await register(user)).statusCode).toBe(201);
    expect((await register(user)).statusCode).toBe(409);
    const mine = await call(get().app, user, 'GET', '/api/v1/registration/mine');
    expect(mine.json()).toMatchObject([{ status: 'Submitted', preferredCity: 'Surat', medium: 'hi', actions: ['registration.cancel'] }]);
  });

  it('should take a candidate through approval, automatic allocation by city, admit card, a move and attendance', async () => {
    const user = await candidate();
    const created = (await register(user, { accommodations: { extraTimePercent: 25, largePrint: true } })).json() as RegistrationAnswer;
    expect(created).toMatchObject({ status: 'Submitted', accommodationStatus: 'requested' });
    const id = created.registrationId;
    expect((await admin('POST', `/api/v1/registration/${id}/allocate`, {})).statusCode).toBe(409);
    expect((await admin('POST', `/api/v1/registration/${id}/status`, { event: 'registration.reject' })).statusCode).toBe(400);
    expect((await admin('POST', `/api/v1/registration/${id}/status`, { event: 'registration.approve' }, world.setter)).statusCode).toBe(403);
    expect((await admin('POST', `/api/v1/registration/${id}/status`, { event: 'registration.approve' })).statusCode).toBe(200);
    const accommodations = await admin('POST', `/api/v1/registration/${id}/accommodations`, { decision: 'approved' });
    expect(accommodations.json()).toMatchObject({ accommodationStatus: 'approved' });
    const allocated = await admin('POST', `/api/v1/registration/${id}/allocate`, {}, world.centerManager);
    expect(allocated.statusCode, allocated.body).toBe(200);
    const seated = (allocated.json() as { record: RegistrationAnswer }).record;
    expect(seated.status).toBe('Allocated');
    expect(seated.center).toMatchObject({ centerId: world.centers[1], city: 'Surat' });
    expect(seated.rollNumber).toBe(`${season.code}${seated.center!.code}${String(seated.seatNumber).padStart(5, '0')}`.toUpperCase());
    expect((await admin('POST', `/api/v1/registration/${id}/status`, { event: 'registration.issueAdmitCard' })).json()).toMatchObject({
      toStatus: 'AdmitCardIssued',
    });

    const moved = await admin('POST', `/api/v1/registration/${id}/move`, { centerId: world.centers[0] }, world.centerManager);
    expect(moved.statusCode, moved.body).toBe(200);
    const after = (moved.json() as { record: RegistrationAnswer }).record;
    expect(after).toMatchObject({ status: 'Allocated', center: { centerId: world.centers[0] } });
    expect(after.rollNumber).not.toBe(seated.rollNumber);
    const centers = (await admin('GET', `/api/v1/season/${season.seasonId}/centers`)).json() as Array<{ centerId: number; allocated: number }>;
    expect(centers.find((c) => c.centerId === world.centers[1])!.allocated).toBe(0);
    expect(centers.find((c) => c.centerId === world.centers[0])!.allocated).toBe(1);

    await admin('POST', `/api/v1/registration/${id}/status`, { event: 'registration.issueAdmitCard' });
    const attended = await admin('POST', `/api/v1/registration/${id}/status`, { event: 'registration.markAttended' });
    expect(attended.json()).toMatchObject({ toStatus: 'Attended' });
    const late = await call(get().app, user, 'POST', `/api/v1/registration/mine/${id}/cancel`, { body: { reason: 'Too late' } });
    expect(late.statusCode).toBe(409);
  });

  it('should free the seat when a candidate cancels, keep their roll number out of reuse, and hide others’ registrations', async () => {
    const user = await candidate();
    const id = ((await register(user)).json() as RegistrationAnswer).registrationId;
    await admin('POST', `/api/v1/registration/${id}/status`, { event: 'registration.approve' });
    const seated = ((await admin('POST', `/api/v1/registration/${id}/allocate`, { centerId: world.centers[1] })).json() as { record: RegistrationAnswer })
      .record;
    const other = await candidate();
    expect((await call(get().app, other, 'POST', `/api/v1/registration/mine/${id}/cancel`, { body: { reason: 'x' } })).statusCode).toBe(404);
    expect((await call(get().app, user, 'POST', `/api/v1/registration/mine/${id}/cancel`, { body: { reason: ' ' } })).statusCode).toBe(400);
    const cancelled = await call(get().app, user, 'POST', `/api/v1/registration/mine/${id}/cancel`, { body: { reason: 'I will sit in June' } });
    expect(cancelled.json()).toMatchObject({ toStatus: 'Cancelled', record: { rollNumber: seated.rollNumber } });
    const centers = (await admin('GET', `/api/v1/season/${season.seasonId}/centers`)).json() as Array<{ centerId: number; allocated: number }>;
    expect(centers.find((c) => c.centerId === world.centers[1])!.allocated).toBe(0);
    // A new registration gets the next sequence, never the cancelled roll number.
    const again = ((await register(user)).json() as RegistrationAnswer).registrationId;
    await admin('POST', `/api/v1/registration/${again}/status`, { event: 'registration.approve' });
    const reseated = ((await admin('POST', `/api/v1/registration/${again}/allocate`, { centerId: world.centers[1] })).json() as { record: RegistrationAnswer })
      .record;
    expect(reseated.rollNumber).not.toBe(seated.rollNumber);
    expect(reseated.seatNumber).toBeGreaterThan(seated.seatNumber!);
    const queue = await admin('POST', '/api/v1/registration/search', { seasonId: season.seasonId, status: 'Cancelled' });
    expect((queue.json() as { data: Array<{ registrationId: number }> }).data.map((r) => r.registrationId)).toContain(id);
  });
});
