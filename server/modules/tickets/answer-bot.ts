import type { Queryable } from '#server/db/client.ts';

/**
 * The answer bot (TICKETS.md): when a ticket is created it looks for resolved tickets of the
 * same tenant whose title and description match (PostgreSQL full-text search) and, when the
 * best match is close enough, stores that ticket's answer as a suggestion. No external AI.
 *
 * "Close enough": at least half of the new ticket's distinct search terms (English stems, no
 * stop words) appear in the resolved ticket, and at least two of them.
 */
export const BOT_MIN_SHARED_TERMS = 2;
export const BOT_MIN_OVERLAP = 0.5;

export interface BotMatch {
  sourceTicketId: number;
  answer: string;
  score: number;
}

export async function findBotMatch(db: Queryable, tenantId: string, ticketId: number, text: string): Promise<BotMatch | undefined> {
  const { rows } = await db.query<{ source_ticket_id: number; answer: string; shared: number; terms: number }>(
    `with query_terms as (
       select array(select distinct lexeme from unnest(to_tsvector('english', $3)) order by lexeme) as terms
     ),
     candidates as (
       select t.id, t.answer, t.search
       from support_tickets t, query_terms q
       where t.tenant_id = $1 and t.id <> $2 and t.status_id in (5, 6) and t.answer is not null and t.answer_reusable
         and cardinality(q.terms) > 0
         and t.search @@ to_tsquery('english', array_to_string(array(select quote_literal(term) from unnest(q.terms) term), ' | '))
       order by ts_rank_cd(t.search, to_tsquery('english', array_to_string(array(select quote_literal(term) from unnest(q.terms) term), ' | ')), 32) desc
       limit 20
     )
     select c.id as source_ticket_id, c.answer,
            cardinality(array(select unnest(q.terms) intersect select unnest(tsvector_to_array(c.search))))::int as shared,
            cardinality(q.terms)::int as terms
     from candidates c, query_terms q`,
    [tenantId, ticketId, text],
  );
  const ranked = rows
    .map((r) => ({ sourceTicketId: r.source_ticket_id, answer: r.answer, shared: r.shared, score: r.terms ? r.shared / r.terms : 0 }))
    .filter((r) => r.shared >= BOT_MIN_SHARED_TERMS && r.score >= BOT_MIN_OVERLAP)
    .sort((a, b) => b.score - a.score || b.shared - a.shared || b.sourceTicketId - a.sourceTicketId);
  const best = ranked[0];
  return best ? { sourceTicketId: best.sourceTicketId, answer: best.answer, score: Math.round(best.score * 1000) / 1000 } : undefined;
}

export async function storeBotSuggestion(db: Queryable, ticketId: number, match: BotMatch, now: Date): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into support_ticket_bot_answers (ticket_id, source_ticket_id, answer, score, created_at) values ($1, $2, $3, $4, $5) returning id`,
    [ticketId, match.sourceTicketId, match.answer, match.score, now],
  );
  return rows[0].id;
}
