import type { Queryable } from '#server/db/client.ts';

export interface ChatMessageRow {
  id: string;
  tenant_id: string;
  ticket_id: number;
  seq: number;
  from_user_id: string;
  from_user_name: string;
  to_user_id: string | null;
  message: string;
  created_at: Date;
}

const columns = `m.id, m.tenant_id, m.ticket_id, m.seq, m.from_user_id,
  trim(u.first_name || ' ' || u.last_name) as from_user_name, m.to_user_id, m.message, m.created_at`;

const normalise = (r: ChatMessageRow): ChatMessageRow => ({ ...r, ticket_id: Number(r.ticket_id), seq: Number(r.seq) });

export async function findMessage(db: Queryable, id: string): Promise<ChatMessageRow | undefined> {
  const { rows } = await db.query<ChatMessageRow>(`select ${columns} from chat_messages m join users u on u.id = m.from_user_id where m.id = $1`, [id]);
  return rows[0] && normalise(rows[0]);
}

/** Hands out the ticket's next sequence number; the row lock orders concurrent sends of one ticket. */
export async function nextSeq(tx: Queryable, ticketId: number): Promise<number> {
  const { rows } = await tx.query<{ last_seq: number }>(
    `insert into chat_ticket_state (ticket_id, last_seq) values ($1, 1)
     on conflict (ticket_id) do update set last_seq = chat_ticket_state.last_seq + 1
     returning last_seq`,
    [ticketId],
  );
  return Number(rows[0].last_seq);
}

export interface NewChatMessage {
  id: string;
  tenantId: string;
  ticketId: number;
  seq: number;
  fromUserId: string;
  toUserId: string | null;
  message: string;
  now: Date;
  fromUserName: string;
}

/** Inserts the message; undefined when its id is taken already (a concurrent retry won). */
export async function insertMessage(tx: Queryable, m: NewChatMessage): Promise<ChatMessageRow | undefined> {
  const { rows } = await tx.query<Omit<ChatMessageRow, 'from_user_name'>>(
    `insert into chat_messages (id, tenant_id, ticket_id, seq, from_user_id, to_user_id, message, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8)
     on conflict (id) do nothing
     returning id, tenant_id, ticket_id, seq, from_user_id, to_user_id, message, created_at`,
    [m.id, m.tenantId, m.ticketId, m.seq, m.fromUserId, m.toUserId, m.message, m.now],
  );
  if (!rows.length) return undefined;
  return normalise({ ...rows[0], from_user_name: m.fromUserName });
}

export async function markRead(db: Queryable, ticketId: number, userId: string, seq: number, now: Date): Promise<number> {
  const { rows } = await db.query<{ last_read_seq: number }>(
    `insert into chat_read_markers (ticket_id, user_id, last_read_seq, updated_at) values ($1, $2, $3, $4)
     on conflict (ticket_id, user_id) do update
       set last_read_seq = greatest(chat_read_markers.last_read_seq, excluded.last_read_seq), updated_at = excluded.updated_at
     returning last_read_seq`,
    [ticketId, userId, seq, now],
  );
  return Number(rows[0].last_read_seq);
}

export interface UnreadRow {
  ticket_id: number;
  last_seq: number;
  last_read_seq: number;
  unread_count: number;
}

/**
 * Unread state of the given tickets for one user, only for tickets the user may see
 * (ticket_audience, the reach rule of tickets-service.ts, in SQL).
 */
export async function unreadStates(db: Queryable, tenantId: string, userId: string, ticketIds: readonly number[]): Promise<UnreadRow[]> {
  const { rows } = await db.query<UnreadRow>(
    `select t.id as ticket_id,
            coalesce(s.last_seq, 0) as last_seq,
            coalesce(r.last_read_seq, 0) as last_read_seq,
            (select count(*) from chat_messages m
              where m.ticket_id = t.id and m.seq > coalesce(r.last_read_seq, 0) and m.from_user_id <> $2) as unread_count
     from support_tickets t
     left join chat_ticket_state s on s.ticket_id = t.id
     left join chat_read_markers r on r.ticket_id = t.id and r.user_id = $2
     where t.id = any($3::bigint[]) and t.tenant_id = $1
       and exists (select 1 from ticket_audience(t.id) a where a.user_id = $2)
     order by t.id`,
    [tenantId, userId, ticketIds],
  );
  return rows.map((r) => ({
    ticket_id: Number(r.ticket_id),
    last_seq: Number(r.last_seq),
    last_read_seq: Number(r.last_read_seq),
    unread_count: Number(r.unread_count),
  }));
}

export async function isInAudience(db: Queryable, ticketId: number, userId: string): Promise<boolean> {
  const { rows } = await db.query('select 1 from ticket_audience($1) a where a.user_id = $2', [ticketId, userId]);
  return rows.length > 0;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export async function pageMessages(
  db: Queryable,
  ticketId: number,
  options: { keyword?: string; beforeSeq?: number | null; limit: number; offset: number },
): Promise<{ rows: ChatMessageRow[]; total: number }> {
  const params: unknown[] = [ticketId];
  let where = 'm.ticket_id = $1';
  if (options.keyword) {
    params.push(`%${escapeLike(options.keyword)}%`);
    where += ` and m.message ilike $${params.length}`;
  }
  if (options.beforeSeq) {
    params.push(options.beforeSeq);
    where += ` and m.seq < $${params.length}`;
  }
  const total = await db.query<{ count: number }>(`select count(*) as count from chat_messages m where ${where}`, params);
  const { rows } = await db.query<ChatMessageRow>(
    `select ${columns} from chat_messages m join users u on u.id = m.from_user_id
     where ${where} order by m.seq desc limit $${params.length + 1} offset $${params.length + 2}`,
    [...params, options.limit, options.offset],
  );
  return { rows: rows.map(normalise), total: Number(total.rows[0].count) };
}
