/**
 * Fills a database with realistic support tickets for the search benchmark: requesters,
 * every status, four priorities, the seeded groups, and titles/descriptions drawn from a
 * support vocabulary so full-text keywords have realistic selectivity (a word of the
 * vocabulary appears in roughly 2–5 % of tickets).
 */
import type { Db } from '#server/db/client.ts';

export const benchVocabulary = [
  'printer',
  'login',
  'password',
  'exam',
  'timer',
  'webcam',
  'microphone',
  'browser',
  'chrome',
  'firefox',
  'upload',
  'download',
  'certificate',
  'result',
  'marks',
  'admit',
  'card',
  'payment',
  'refund',
  'invoice',
  'centre',
  'schedule',
  'reschedule',
  'slot',
  'proctor',
  'network',
  'wifi',
  'screen',
  'blank',
  'error',
  'crash',
  'freeze',
  'slow',
  'audio',
  'video',
  'photo',
  'identity',
  'document',
  'name',
  'surname',
  'spelling',
  'email',
  'phone',
  'otp',
  'code',
  'expired',
  'locked',
  'account',
  'registration',
  'fees',
  'receipt',
  'answer',
  'question',
  'section',
  'paper',
  'submit',
  'button',
  'disabled',
  'keyboard',
  'mouse',
  'battery',
  'laptop',
  'tablet',
  'mobile',
  'app',
  'update',
  'version',
  'language',
  'hindi',
  'gujarati',
  'french',
  'spanish',
  'font',
  'scan',
  'signature',
  'address',
  'delivery',
  'courier',
  'hall',
  'ticket',
  'seat',
  'invigilator',
  'rules',
  'calculator',
];

export async function seedBenchTickets(db: Db, count: number, log: (line: string) => void = () => {}): Promise<void> {
  const started = performance.now();
  await db.query(
    `insert into users (tenant_id, first_name, last_name, email, user_name, email_confirmed)
     select 'root', 'Bench', 'Requester ' || g, 'bench.requester' || g || '@example.test', 'bench-requester-' || g, true
     from generate_series(1, 2000) g
     on conflict do nothing`,
  );
  const batch = 100_000;
  for (let offset = 0; offset < count; offset += batch) {
    const size = Math.min(batch, count - offset);
    await db.query(
      `with vocab as (select $2::text[] as w),
            requesters as (select array_agg(id order by email) as ids from users where email like 'bench.requester%'),
            groups as (select array_agg(id order by sort_order) as ids from support_groups where tenant_id = 'root' and sort_order <= 4)
       insert into support_tickets (tenant_id, title, description, requester_id, created_by, priority_id, support_group_id, status_id, created_at, updated_at)
       select 'root',
              initcap(w[1 + (random() * (cardinality(w) - 1))::int]) || ' ' || w[1 + (random() * (cardinality(w) - 1))::int] || ' ' || w[1 + (random() * (cardinality(w) - 1))::int],
              -- the inner column in the argument keeps the aggregate inside the subquery; g correlates it per row
              (select string_agg(w[1 + (random() * (cardinality(w) - 1) + i * 0)::int], ' ') from generate_series(1, 12 + g * 0) i),
              r.ids[1 + (g % cardinality(r.ids))], r.ids[1 + (g % cardinality(r.ids))],
              1 + (g % 4), gr.ids[1 + (g % 4)], 1 + (g % 7),
              now() - make_interval(secs => g * 17), now() - make_interval(secs => g * 17)
       from generate_series($1::int + 1, $1::int + $3::int) g, vocab, requesters r, groups gr`,
      [offset, benchVocabulary, size],
    );
    log(`  seeded ${offset + size} tickets (${Math.round((performance.now() - started) / 1000)} s)`);
  }
  await db.query('analyze support_tickets');
}
