import type { FastifyBaseLogger } from 'fastify';
import type { DeliveryRoomData } from '#machines/realtime-protocol.ts';
import type { Db, Queryable } from '#server/db/client.ts';
import { appendEvent } from '#server/modules/realtime/realtime-repository.ts';
import type { DeliveryRow } from './delivery-service.ts';

/**
 * The invigilator console's live feed (issue 19, docs/decisions/0248): a `delivery.room` push to
 * every invigilator of the exam when a delivery of a room (season paper × center) changes.
 *
 * Saves and heartbeats are the hot path of a sitting (2,000 candidates saving every 15 s), so
 * the push is not written in their transaction: the realtime log's advisory lock would
 * serialise every save. It is appended after the commit and coalesced per room: the first
 * change of a quiet room goes out at once, later ones within the window become one trailing
 * push. A push lost to a crash between commit and append is covered by the console's slower poll.
 */
export interface RoomChange {
  tenantId: string;
  projectId: number;
  examId: number;
  seasonPaperId: number;
  centerId: number | null;
  deliveryId: number;
}

export function roomOf(row: DeliveryRow): RoomChange {
  return { tenantId: row.tenantId, projectId: row.projectId, examId: row.examId, seasonPaperId: row.seasonPaperId, centerId: row.centerId, deliveryId: row.id };
}

interface RoomState {
  lastSentAt: number;
  timer: NodeJS.Timeout | null;
  pending: (RoomChange & { cause: string }) | null;
}

export const ROOM_PUSH_WINDOW_MS = 1_000;

/**
 * Who may watch a room: holders of an Invigilator grant on the exam (or on the whole project) and
 * the project's ProjectAdmins. Grants are per exam, not per center, so an invigilator of the
 * exam may invigilate each of its centers.
 */
export async function roomAudience(db: Queryable, change: Pick<RoomChange, 'projectId' | 'examId'>): Promise<string[]> {
  const { rows } = await db.query<{ userId: string }>(
    `select distinct g.user_id as "userId" from exam_grants g join users u on u.id = g.user_id
     where g.project_id = $1 and u.is_active
       and ((g.permission = 'Invigilator' and (g.exam_id is null or g.exam_id = $2)) or (g.permission = 'ProjectAdmin' and g.exam_id is null))`,
    [change.projectId, change.examId],
  );
  return rows.map((r) => r.userId);
}

export class RoomPush {
  private readonly rooms = new Map<string, RoomState>();
  private readonly inFlight = new Set<Promise<void>>();
  log: FastifyBaseLogger | null = null;

  constructor(
    private readonly db: Db,
    private readonly windowMs = ROOM_PUSH_WINDOW_MS,
  ) {}

  /** Called after the change committed; never throws (the console's poll is the fallback). */
  changed(change: RoomChange, cause: string): void {
    const key = `${change.seasonPaperId}:${change.centerId ?? 0}`;
    const room = this.rooms.get(key) ?? { lastSentAt: 0, timer: null, pending: null };
    this.rooms.set(key, room);
    room.pending = { ...change, cause };
    if (room.timer) return;
    const wait = room.lastSentAt + this.windowMs - Date.now();
    if (wait <= 0) return this.flush(key, room);
    room.timer = setTimeout(() => this.flush(key, room), wait);
    room.timer.unref();
  }

  /** Resolves once every push begun so far is written (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  stop() {
    for (const room of this.rooms.values()) if (room.timer) clearTimeout(room.timer);
    this.rooms.clear();
  }

  private flush(key: string, room: RoomState) {
    room.timer = null;
    const change = room.pending;
    room.pending = null;
    if (!change) return;
    room.lastSentAt = Date.now();
    const work = this.write(change)
      .catch((error) => this.log?.warn({ err: error, room: key }, 'delivery: the console push failed; the console poll covers it'))
      .finally(() => this.inFlight.delete(work));
    this.inFlight.add(work);
  }

  private async write(change: RoomChange & { cause: string }) {
    const data: DeliveryRoomData = { seasonPaperId: change.seasonPaperId, centerId: change.centerId, deliveryId: change.deliveryId, cause: change.cause };
    await this.db.transaction(async (tx) => {
      for (const userId of await roomAudience(tx, change)) {
        await appendEvent(tx, { tenantId: change.tenantId, kind: 'delivery.room', userId, payload: { ...data } });
      }
    });
  }
}

const pushes = new WeakMap<Db, RoomPush>();

/** One push per database: the routes and the expiry job (registered apart) share its per-room window. */
export function roomPushFor(db: Db): RoomPush {
  let push = pushes.get(db);
  if (!push) pushes.set(db, (push = new RoomPush(db)));
  return push;
}
