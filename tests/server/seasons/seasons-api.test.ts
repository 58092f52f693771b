import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { call } from '../exams/workspace-kit.ts';
import { createCenter, createSeason, projectCall, readySeason, seasonBody, seasonWorld, type SeasonWorld } from './seasons-kit.ts';

interface ScheduleAnswer {
  record: {
    seasonPaperId: number;
    startsAt: string;
    endsAt: string;
    liveSets: string[];
    availableSets: string[];
    sections: Array<{ sectionId: number; timeLimitMinutes: number | null; note: string }>;
    version: number;
  };
  clashes: Array<{ seasonPaperIds: number[]; message: string }>;
}

describeEachDatabase('seasons', (get) => {
  let world: SeasonWorld;
  beforeAll(async () => {
    world = await seasonWorld(get().app, get().db);
  });

  it('should refuse a season call without ProjectId (400) and a season of another project (404)', async () => {
    const { app } = get();
    const season = await createSeason(app, world);
    expect((await call(app, world.manager, 'GET', `/api/v1/season/${season.seasonId}`)).statusCode).toBe(400);
    const otherProject = await call(app, world.manager, 'POST', '/api/v1/project', {
      body: { code: `O${season.seasonId}x${Date.now() % 1e6}`, name: 'Other' },
    });
    const other = (otherProject.json() as { projectId: number }).projectId;
    const res = await call(app, world.manager, 'GET', `/api/v1/season/${season.seasonId}`, { project: other });
    expect(res.statusCode).toBe(404);
    expect(res.json().messages).toEqual(['Season not found.']);
  });

  it('should validate the windows and the roll pattern with 400s naming the field', async () => {
    const { app } = get();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ endsOn: '2027-02-01' }, 'endsOn'],
      [{ registrationClosesAt: '2026-10-01T00:00:00.000Z' }, 'registrationClosesAt'],
      [{ registrationClosesAt: '2027-04-02T00:00:00.000Z' }, 'registrationClosesAt'],
      [{ rollPattern: '{season}{center}' }, 'rollPattern'],
      [{ startsOn: '2027-02-30' }, 'startsOn'],
    ];
    for (const [over, field] of cases) {
      const res = await projectCall(app, world, world.manager, 'POST', '/api/v1/season', seasonBody(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.body, JSON.stringify(over)).toContain(field);
    }
    const staffCreate = await projectCall(app, world, world.setter, 'POST', '/api/v1/season', seasonBody());
    expect(staffCreate.statusCode).toBe(403);
  });

  it('should schedule papers, warn about a clash of one candidate group, and keep each paper within the season', async () => {
    const { app } = get();
    const season = await createSeason(app, world);
    const base = `/api/v1/season/${season.seasonId}`;
    const first = await projectCall(app, world, world.manager, 'POST', `${base}/paper`, {
      paperId: world.lockedPaperId,
      sitsOn: '2027-03-10',
      startsAt: '10:00',
    });
    expect(first.statusCode, first.body).toBe(201);
    const a = first.json() as ScheduleAnswer;
    expect(a.record).toMatchObject({ startsAt: '10:00', endsAt: '13:00', liveSets: ['A', 'B', 'C'], availableSets: ['A', 'B', 'C'] });
    expect(a.clashes).toEqual([]);
    const second = await projectCall(app, world, world.manager, 'POST', `${base}/paper`, {
      paperId: world.draftPaperId,
      sitsOn: '2027-03-10',
      startsAt: '12:30',
    });
    const b = second.json() as ScheduleAnswer;
    expect(b.clashes).toHaveLength(1);
    expect(b.clashes[0].seasonPaperIds).toEqual([a.record.seasonPaperId, b.record.seasonPaperId]);
    expect(b.clashes[0].message).toContain('at the same time');
    const again = await projectCall(app, world, world.manager, 'POST', `${base}/paper`, {
      paperId: world.lockedPaperId,
      sitsOn: '2027-03-11',
      startsAt: '10:00',
    });
    expect(again.statusCode).toBe(409);
    const outside = await projectCall(app, world, world.manager, 'PUT', `${base}/paper/${b.record.seasonPaperId}`, { sitsOn: '2027-04-01', version: 1 });
    expect(outside.statusCode).toBe(400);
    expect(outside.body).toContain('2027-03-01 to 2027-03-31');
    // Another candidate group on the same morning is no clash.
    const moved = await projectCall(app, world, world.manager, 'PUT', `${base}/paper/${b.record.seasonPaperId}`, {
      candidateGroup: 'Science stream',
      version: 1,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((moved.json() as ScheduleAnswer).clashes).toEqual([]);
    const stale = await projectCall(app, world, world.manager, 'PUT', `${base}/paper/${b.record.seasonPaperId}`, { startsAt: '15:00', version: 1 });
    expect(stale.statusCode).toBe(409);
    const schedule = await projectCall(app, world, world.setter, 'GET', `${base}/schedule`);
    expect(schedule.json()).toMatchObject({ papers: [{ startsAt: '10:00' }, { startsAt: '12:30', candidateGroup: 'Science stream' }], clashes: [] });
    const unknownPaper = await projectCall(app, world, world.manager, 'POST', `${base}/paper`, { paperId: 999999999, sitsOn: '2027-03-10', startsAt: '10:00' });
    expect(unknownPaper.statusCode).toBe(400);
  });

  it('should set the live sets and section settings, refusing unknown sets, sets of a paper without any, and too long sections', async () => {
    const { app } = get();
    const season = await createSeason(app, world);
    const base = `/api/v1/season/${season.seasonId}`;
    const locked = (
      await projectCall(app, world, world.manager, 'POST', `${base}/paper`, { paperId: world.lockedPaperId, sitsOn: '2027-03-10', startsAt: '10:00' })
    ).json() as ScheduleAnswer;
    const draft = (
      await projectCall(app, world, world.manager, 'POST', `${base}/paper`, { paperId: world.draftPaperId, sitsOn: '2027-03-12', startsAt: '10:00' })
    ).json() as ScheduleAnswer;
    const sets = await projectCall(app, world, world.manager, 'PUT', `${base}/paper/${locked.record.seasonPaperId}/sets`, { letters: ['A', 'C'] });
    expect(sets.statusCode, sets.body).toBe(200);
    expect((sets.json() as ScheduleAnswer).record.liveSets).toEqual(['A', 'C']);
    const unknown = await projectCall(app, world, world.manager, 'PUT', `${base}/paper/${locked.record.seasonPaperId}/sets`, { letters: ['D'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('has no set D');
    expect((await projectCall(app, world, world.manager, 'PUT', `${base}/paper/${locked.record.seasonPaperId}/sets`, { letters: [] })).statusCode).toBe(400);
    expect((await projectCall(app, world, world.manager, 'PUT', `${base}/paper/${draft.record.seasonPaperId}/sets`, { letters: ['A'] })).statusCode).toBe(409);

    const [s1, s2] = locked.record.sections;
    const settings = await projectCall(app, world, world.manager, 'PUT', `${base}/paper/${locked.record.seasonPaperId}/sections`, {
      sections: [
        { sectionId: s1.sectionId, timeLimitMinutes: 60, note: 'Collect rough sheets' },
        { sectionId: s2.sectionId, timeLimitMinutes: null },
      ],
    });
    expect(settings.statusCode, settings.body).toBe(200);
    expect((settings.json() as ScheduleAnswer).record.sections.map((s) => [s.timeLimitMinutes, s.note])).toEqual([
      [60, 'Collect rough sheets'],
      [null, ''],
    ]);
    const tooLong = await projectCall(app, world, world.manager, 'PUT', `${base}/paper/${locked.record.seasonPaperId}/sections`, {
      sections: [
        { sectionId: s1.sectionId, timeLimitMinutes: 120 },
        { sectionId: s2.sectionId, timeLimitMinutes: 100 },
      ],
    });
    expect(tooLong.statusCode).toBe(400);
    const foreign = await projectCall(app, world, world.manager, 'PUT', `${base}/paper/${locked.record.seasonPaperId}/sections`, {
      sections: [{ sectionId: 999999999 }],
    });
    expect(foreign.statusCode).toBe(400);
  });

  it('should give centers seats within their capacity, let a center manager change seats but not the status, and lock capacity below seats', async () => {
    const { app } = get();
    const season = await createSeason(app, world);
    const base = `/api/v1/season/${season.seasonId}`;
    const [big] = world.centers;
    const over = await projectCall(app, world, world.manager, 'PUT', `${base}/center`, { centerId: big, seats: 201 });
    expect(over.statusCode).toBe(400);
    expect(over.body).toContain('200 seats');
    const given = await projectCall(app, world, world.centerManager, 'PUT', `${base}/center`, { centerId: big, seats: 150 });
    expect(given.statusCode, given.body).toBe(200);
    expect(given.json()).toMatchObject({ seats: 150, allocated: 0, capacity: 200 });
    const inactive = await createCenter(app, world.manager, { isActive: false });
    expect((await projectCall(app, world, world.manager, 'PUT', `${base}/center`, { centerId: inactive.centerId, seats: 10 })).statusCode).toBe(400);
    const shrink = await call(app, world.manager, 'PUT', `/api/v1/examcenter/${big}`, { body: { capacity: 100 }, headers: { 'if-match': '"1"' } });
    expect(shrink.statusCode).toBe(400);
    expect(shrink.body).toContain('150 seats');
    const status = await projectCall(app, world, world.centerManager, 'POST', `${base}/status`, { event: 'season.openRegistration' });
    expect(status.statusCode).toBe(403);
    const centers = await projectCall(app, world, world.setter, 'GET', `${base}/centers`);
    expect(centers.json()).toMatchObject([{ centerId: big, seats: 150 }]);
    const removed = await projectCall(app, world, world.manager, 'DELETE', `${base}/center/${big}`);
    expect(removed.json()).toEqual({ deleted: true });
    expect((await projectCall(app, world, world.manager, 'DELETE', `${base}/center/${big}`)).statusCode).toBe(404);
  });

  it('should refuse opening registration until the season has a paper and seats, then freeze the schedule once it is in progress', async () => {
    const { app } = get();
    const empty = await createSeason(app, world);
    const refused = await projectCall(app, world, world.manager, 'POST', `/api/v1/season/${empty.seasonId}/status`, { event: 'season.openRegistration' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ currentStatus: 'Planned', missing: ['a scheduled paper', 'a center with seats'] });

    const season = await readySeason(app, world);
    const base = `/api/v1/season/${season.seasonId}`;
    for (const event of ['season.openRegistration', 'season.closeRegistration', 'season.start']) {
      const res = await projectCall(app, world, world.manager, 'POST', `${base}/status`, { event });
      expect(res.statusCode, `${event}: ${res.body}`).toBe(200);
    }
    const read = (await projectCall(app, world, world.manager, 'GET', base)).json() as { status: string; canConfigure: boolean; actions: string[] };
    expect(read).toMatchObject({ status: 'InProgress', canConfigure: false, actions: ['season.complete'] });
    const frozen = await projectCall(app, world, world.manager, 'PUT', `${base}/center`, { centerId: world.centers[0], seats: 10 });
    expect(frozen.statusCode).toBe(409);
    expect(frozen.json().currentStatus).toBe('InProgress');
    const edit = await projectCall(app, world, world.manager, 'PUT', base, { name: 'Late', version: 1 });
    expect(edit.statusCode).toBe(409);
  });
});
