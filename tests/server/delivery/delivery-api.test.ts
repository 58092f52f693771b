import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { manualClock } from '#server/lib/clock.ts';
import { expireDeliveries } from '#server/modules/delivery/delivery-module.ts';
import { applyDeliveryEventUnlessStale, eventTime, readDelivery } from '#server/modules/delivery/delivery-service.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, type TestUser } from '#tests/setup/test-users.ts';
import { call } from '../exams/workspace-kit.ts';
import { projectCall } from '../seasons/seasons-kit.ts';
import { admittedCandidate, deliveryWorld, openDelivery, SITTING, type DeliveryAnswer, type DeliveryWorld } from './delivery-kit.ts';

const MIN = 60_000;
const clock = manualClock(new Date('2027-03-10T04:00:00.000Z'));
const setClock = (iso: string) => clock.set(new Date(iso));
const at = (minutesAfterStart: number) => new Date(Date.parse(SITTING.startsAtIso) + minutesAfterStart * MIN).toISOString();

describeEachDatabase(
  'delivery API',
  (get) => {
    let world: DeliveryWorld;
    beforeAll(async () => {
      world = await deliveryWorld(get().app, get().db);
    });

    const mine = (user: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
      call(get().app, user, method, `/api/v1/delivery/mine${url}`, { body });
    const invigilate = (id: number, body: Record<string, unknown>) =>
      projectCall(get().app, world, world.invigilator, 'POST', `/api/v1/delivery/${id}/event`, body);
    const save = (itemNumber: number, sequence: number, response: unknown, saveId = randomUUID(), marked = false) => ({
      saveId,
      itemNumber,
      sequence,
      response,
      marked,
    });

    async function sitting(accommodations?: { extraTimePercent: number }) {
      setClock(at(-30));
      const { candidate, registrationId } = await admittedCandidate(get().app, world, accommodations);
      const delivery = await openDelivery(get().app, world, candidate, registrationId);
      return { candidate, registrationId, delivery };
    }

    it('should list the sitting, open it once with a set and no answer key, and reopen the same', async () => {
      const { candidate, registrationId, delivery } = await sitting();
      const list = (await mine(candidate, 'GET', '')).json() as Array<{ deliveryId: number; startsAt: string; status: string }>;
      expect(list).toEqual([expect.objectContaining({ deliveryId: delivery.deliveryId, startsAt: SITTING.startsAtIso, status: 'Waiting' })]);
      expect(['A', 'B', 'C']).toContain(delivery.setLetter);
      expect(delivery.timing).toMatchObject({ status: 'Waiting', remainingMs: 60 * MIN, deadline: null });
      const items = delivery.sections.flatMap((s) => s.items);
      expect(items.length).toBeGreaterThan(0);
      expect(items.map((i) => i.number)).toEqual(items.map((_, i) => i + 1));
      for (const item of items) if (item.kind === 'singleChoice') expect(item.content.correct).toBe('');
      const again = await openDelivery(get().app, world, candidate, registrationId);
      expect(again.deliveryId).toBe(delivery.deliveryId);
      expect(again.setLetter).toBe(delivery.setLetter);
      expect(again.sections).toEqual(delivery.sections);
    });

    it('should refuse the start before the start time unless admitted early, and refuse another candidate', async () => {
      const { candidate, delivery } = await sitting();
      setClock(at(-5));
      const early = await mine(candidate, 'POST', `/${delivery.deliveryId}/start`, { declaration: true });
      expect(early.statusCode).toBe(409);
      expect(early.json().messages[0]).toMatch(/not started yet/);
      const { candidate: other } = await admittedCandidate(get().app, world);
      expect((await mine(other, 'GET', `/${delivery.deliveryId}`)).statusCode).toBe(404);
      expect((await mine(candidate, 'POST', `/${delivery.deliveryId}/start`, { declaration: false })).statusCode).toBe(400);
      const admitted = await invigilate(delivery.deliveryId, { event: 'delivery.admit' });
      expect(admitted.statusCode, admitted.body).toBe(200);
      const started = await mine(candidate, 'POST', `/${delivery.deliveryId}/start`, { declaration: true });
      expect(started.statusCode, started.body).toBe(200);
      expect(started.json()).toMatchObject({ status: 'Active', deadline: at(55), remainingMs: 60 * MIN, declared: true });
    });

    it('should start from a row read without a lock only if nothing changed it since, and answer from a locked read otherwise', async () => {
      // Refused on a stale row (not admitted yet, before the start time) while the admit lands: the start still goes through.
      const early = await sitting();
      setClock(at(-5));
      const notAdmitted = (await readDelivery(get().db, early.delivery.deliveryId))!;
      expect((await invigilate(early.delivery.deliveryId, { event: 'delivery.admit' })).statusCode).toBe(200);
      const started = await mine(early.candidate, 'POST', `/${early.delivery.deliveryId}/start`, { declaration: true });
      expect(started.statusCode, started.body).toBe(200);
      expect(started.json()).toMatchObject({ status: 'Active', declared: true });
      expect(notAdmitted.version).toBeLessThan((await readDelivery(get().db, early.delivery.deliveryId))!.version);

      // Accepted on a stale row (the invigilator terminated it meanwhile): the versioned update takes nothing.
      const late = await sitting();
      setClock(at(1));
      const stale = (await readDelivery(get().db, late.delivery.deliveryId))!;
      expect((await invigilate(late.delivery.deliveryId, { event: 'delivery.terminate', reason: 'Left the hall' })).statusCode).toBe(200);
      const start = { type: 'delivery.start' as const, by: { candidate: true }, at: eventTime(stale, clock.now()) };
      await expect(applyDeliveryEventUnlessStale(get().db, stale, start, late.candidate.id, { declare: true })).resolves.toBeNull();
      const { rows } = await get().db.query<{ event: string }>(`select event from delivery_history where delivery_id = $1 order by id`, [
        late.delivery.deliveryId,
      ]);
      expect(rows.map((r) => r.event)).toEqual(['delivery.open', 'delivery.terminate']);
      const refused = await mine(late.candidate, 'POST', `/${late.delivery.deliveryId}/start`, { declaration: true });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().extra ?? refused.json()).toMatchObject({ currentStatus: 'Terminated' });
    });

    it('should add approved extra time and extensions, not count paused time, and resume with the same time left', async () => {
      const { candidate, delivery } = await sitting({ extraTimePercent: 25 });
      expect(delivery.timing.remainingMs).toBe(75 * MIN);
      const id = delivery.deliveryId;
      setClock(at(0));
      await mine(candidate, 'POST', `/${id}/start`, { declaration: true });
      setClock(at(20));
      expect((await invigilate(id, { event: 'delivery.pause', reason: 'Power cut' })).statusCode).toBe(200);
      setClock(at(50));
      const paused = (await mine(candidate, 'GET', `/${id}`)).json() as DeliveryAnswer;
      expect(paused.timing).toMatchObject({ status: 'Paused', remainingMs: 55 * MIN, deadline: null });
      expect((await invigilate(id, { event: 'delivery.extend', minutes: 5 })).statusCode).toBe(400);
      expect((await invigilate(id, { event: 'delivery.extend', minutes: 5, reason: 'The power cut' })).statusCode).toBe(200);
      expect((await invigilate(id, { event: 'delivery.resume' })).statusCode).toBe(200);
      setClock(at(60));
      const resumed = (await mine(candidate, 'GET', `/${id}`)).json() as DeliveryAnswer;
      expect(resumed.timing).toMatchObject({ status: 'Active', remainingMs: 50 * MIN, deadline: at(110) });
      const record = (await projectCall(get().app, world, world.invigilator, 'GET', `/api/v1/delivery/${id}`)).json() as {
        history: Array<{ event: string; reason: string | null }>;
      };
      expect(record.history.map((h) => h.event)).toEqual(['delivery.open', 'delivery.start', 'delivery.pause', 'delivery.extend', 'delivery.resume']);
      expect(record.history[3].reason).toBe('The power cut');
      expect((await projectCall(get().app, world, candidate, 'POST', `/api/v1/delivery/${id}/event`, { event: 'delivery.pause' })).statusCode).toBe(403);
      // Each invigilator action reached the candidate over the hub, in order, and no one else.
      const pushed = (await call(get().app, candidate, 'GET', '/api/hubs/notifications/missed?after=0')).json() as {
        events: Array<{ kind: string; data: { deliveryId: number; event: string; status: string } }>;
      };
      expect(pushed.events.filter((e) => e.kind === 'delivery.changed').map((e) => [e.data.deliveryId, e.data.event, e.data.status])).toEqual([
        [id, 'delivery.pause', 'Paused'],
        [id, 'delivery.extend', 'Paused'],
        [id, 'delivery.resume', 'Active'],
      ]);
      const { candidate: other } = await admittedCandidate(get().app, world);
      const theirs = (await call(get().app, other, 'GET', '/api/hubs/notifications/missed?after=0')).json() as { events: Array<{ kind: string }> };
      expect(theirs.events.filter((e) => e.kind === 'delivery.changed')).toEqual([]);
    });

    it('should store a retried save once, keep the highest sequence whatever the arrival order, and resume the answers', async () => {
      const { candidate, registrationId, delivery } = await sitting();
      const id = delivery.deliveryId;
      setClock(at(1));
      await mine(candidate, 'POST', `/${id}/start`, { declaration: true });
      const newer = save(1, 3, 'b', randomUUID(), true);
      const first = await mine(candidate, 'PUT', `/${id}/answers`, { saves: [newer, save(2, 1, 'a')] });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().results.map((r: { applied: boolean }) => r.applied)).toEqual([true, true]);
      // An older save of question 1 arriving later (another device, a slow retry) does not win.
      const older = await mine(candidate, 'PUT', `/${id}/answers`, { saves: [save(1, 2, 'c')] });
      expect(older.json().results[0]).toMatchObject({ applied: false, storedSequence: 3 });
      // The same save again: answered as the first time, nothing changes.
      const retry = await mine(candidate, 'PUT', `/${id}/answers`, { saves: [newer] });
      expect(retry.json().results[0]).toMatchObject({ applied: true, storedSequence: 3 });
      expect((await mine(candidate, 'PUT', `/${id}/answers`, { saves: [save(9999, 1, 'x')] })).statusCode).toBe(400);
      const again = await openDelivery(get().app, world, candidate, registrationId);
      expect(again.answers).toEqual([
        { itemNumber: 1, sequence: 3, response: 'b', marked: true },
        { itemNumber: 2, sequence: 1, response: 'a', marked: false },
      ]);
      const counted = await get().db.query<{ n: number }>(`select count(*)::int as n from delivery_saves where delivery_id = $1`, [id]);
      expect(counted.rows[0].n).toBe(3);
    });

    it('should submit with a receipt, then refuse every save with 409 and keep it as telemetry only', async () => {
      const { candidate, delivery } = await sitting();
      const id = delivery.deliveryId;
      setClock(at(0));
      await mine(candidate, 'POST', `/${id}/start`, { declaration: true });
      await mine(candidate, 'PUT', `/${id}/answers`, { saves: [save(1, 1, 'a'), save(2, 1, null)] });
      setClock(at(30));
      const submitted = await mine(candidate, 'POST', `/${id}/submit`);
      expect(submitted.statusCode, submitted.body).toBe(200);
      expect(submitted.json()).toMatchObject({ deliveryId: id, status: 'Submitted', endedAt: at(30), answered: 1 });
      const late = await mine(candidate, 'PUT', `/${id}/answers`, { saves: [save(3, 1, 'd')] });
      expect(late.statusCode).toBe(409);
      const answers = await get().db.query(`select item_number from delivery_answers where delivery_id = $1 and item_number = 3`, [id]);
      expect(answers.rows).toEqual([]);
      const record = (await projectCall(get().app, world, world.invigilator, 'GET', `/api/v1/delivery/${id}`)).json() as { lateSaves: number };
      expect(record.lateSaves).toBe(1);
      expect((await mine(candidate, 'GET', `/${id}/receipt`)).json()).toMatchObject({ answered: 1 });
    });

    it('should auto-submit at time up with no browser open, recorded at the deadline, and refuse a later save', async () => {
      const { candidate, delivery } = await sitting();
      const id = delivery.deliveryId;
      setClock(at(0));
      await mine(candidate, 'POST', `/${id}/start`, { declaration: true });
      await mine(candidate, 'PUT', `/${id}/answers`, { saves: [save(1, 1, 'a')] });
      setClock(at(59));
      await expireDeliveries(get().db, clock);
      const before = await get().db.query<{ status: string }>(`select status from deliveries where id = $1`, [id]);
      expect(before.rows[0].status).toBe('Active');
      setClock(at(61));
      expect((await expireDeliveries(get().db, clock)).expired).toBeGreaterThanOrEqual(1);
      const row = await get().db.query<{ status: string; ended_at: Date }>(`select status, ended_at from deliveries where id = $1`, [id]);
      expect(row.rows[0].status).toBe('TimeUp');
      expect(new Date(row.rows[0].ended_at).toISOString()).toBe(at(60));
      expect((await mine(candidate, 'PUT', `/${id}/answers`, { saves: [save(2, 1, 'b')] })).statusCode).toBe(409);
      expect((await mine(candidate, 'GET', `/${id}/receipt`)).json()).toMatchObject({ status: 'TimeUp', answered: 1 });
    });

    it('should settle time up on the next request even before the job runs, and list the room for the invigilator', async () => {
      const { candidate, delivery } = await sitting();
      const id = delivery.deliveryId;
      setClock(at(0));
      await mine(candidate, 'POST', `/${id}/start`, { declaration: true });
      await mine(candidate, 'POST', `/${id}/telemetry`, { events: [{ kind: 'heartbeat' }, { kind: 'focusLost' }] });
      const room = await projectCall(get().app, world, world.invigilator, 'GET', `/api/v1/delivery?seasonPaperId=${world.seasonPaperId}`);
      expect(room.statusCode, room.body).toBe(200);
      const mineRow = (room.json() as Array<{ deliveryId: number; alerts: number; lastHeartbeat: string | null; actions: string[] }>).find(
        (r) => r.deliveryId === id,
      )!;
      expect(mineRow).toMatchObject({ alerts: 1, lastHeartbeat: at(0) });
      expect(mineRow.actions).toEqual(['delivery.pause', 'delivery.extend', 'delivery.terminate']);
      setClock(at(70));
      const submit = await mine(candidate, 'POST', `/${id}/submit`);
      expect(submit.statusCode).toBe(409);
      expect(submit.json().messages[0]).toMatch(/submitted automatically/);
      expect(((await mine(candidate, 'GET', `/${id}`)).json() as DeliveryAnswer).timing).toMatchObject({ status: 'TimeUp', remainingMs: 0 });
    });

    it("should keep the browser's reports with the delivery and raise focus, fullscreen and a new address as the console's alerts", async () => {
      const { candidate, delivery } = await sitting();
      const id = delivery.deliveryId;
      setClock(at(0));
      await mine(candidate, 'POST', `/${id}/start`, { declaration: true });
      const report = (remoteAddress: string, events: unknown[]) =>
        get().app.inject({
          method: 'POST',
          url: `/api/v1/delivery/mine/${id}/telemetry`,
          headers: as(candidate),
          payload: { events },
          remoteAddress,
        });
      expect((await report('10.0.0.1', [{ kind: 'heartbeat' }])).statusCode).toBe(200);
      expect((await report('10.0.0.1', [{ kind: 'focusLost' }, { kind: 'focusRegained' }])).statusCode).toBe(200);
      // The school's network drops; the phone's hotspot carries the sitting on.
      const back = await report('10.0.0.2', [{ kind: 'reconnected', details: { offlineMs: 42_000 } }, { kind: 'fullscreenExited' }]);
      expect(back.statusCode, back.body).toBe(200);
      expect(back.json()).toMatchObject({ status: 'Active' });
      expect((await report('10.0.0.2', [{ kind: 'heartbeat' }])).statusCode).toBe(200);
      const kept = await get().db.query<{ kind: string; details: Record<string, unknown>; ip: string }>(
        `select kind, details, ip from delivery_telemetry where delivery_id = $1 order by id`,
        [id],
      );
      expect(kept.rows.map((r) => [r.kind, r.ip])).toEqual([
        ['heartbeat', '10.0.0.1'],
        ['focusLost', '10.0.0.1'],
        ['focusRegained', '10.0.0.1'],
        ['ipChanged', '10.0.0.2'],
        ['reconnected', '10.0.0.2'],
        ['fullscreenExited', '10.0.0.2'],
        ['heartbeat', '10.0.0.2'],
      ]);
      expect(kept.rows[3].details).toEqual({ from: '10.0.0.1', to: '10.0.0.2' });
      expect(kept.rows[4].details).toEqual({ offlineMs: 42_000 });
      const room = await projectCall(get().app, world, world.invigilator, 'GET', `/api/v1/delivery?seasonPaperId=${world.seasonPaperId}`);
      const row = (room.json() as Array<{ deliveryId: number; alerts: number }>).find((r) => r.deliveryId === id)!;
      expect(row.alerts, 'focus lost, fullscreen exited, the new address').toBe(3);
      // A kind the browser may not claim (the server raises ipChanged itself) is refused, not stored.
      expect((await report('10.0.0.3', [{ kind: 'ipChanged' }])).statusCode).toBe(400);
    });
  },
  { deliveryClock: clock },
);
