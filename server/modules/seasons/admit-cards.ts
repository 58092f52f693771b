import type { NotificationKind } from '#machines/realtime-protocol.ts';
import { notify } from '#server/modules/notifications/notify.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '#server/db/client.ts';
import { getOrCreateSecret } from '#server/db/seed.ts';
import { enqueueJob, JOB_LEASE_SECONDS, type Job } from '#server/lib/jobs.ts';
import type { MailDispatcher } from '#server/mail/mail-dispatcher.ts';
import { candidateMailLanguage, registrationMail, type RegistrationMailKind } from '#server/mail/registration-mails.ts';
import { fonts, type IndicScript, type PdfPrinter } from '#server/modules/papers/paper-print.ts';
import { admitCardPage, admitCardShell, cardTexts, qrDataUrl, type AdmitCardPrint } from './admit-card-print.ts';
import { signAdmitToken } from './admit-token.ts';

/**
 * Admit cards as documents (docs/decisions/0232): the PDF of a registration's current admit-card
 * version is rendered once (headless Chromium, the papers' printer) and kept, so the candidate
 * downloads the card as it was issued and an invigilator's copy is the same file; a batch job
 * issues the cards of a season (or one center) and renders them, reporting its rate. The
 * candidate is e-mailed on approval, rejection and issue, in their language.
 */
export const ADMIT_CARD_BATCH_JOB = 'seasons.admitCardBatch';
/** Cards issued and rendered per committed step of a batch. */
export const ADMIT_BATCH_STEP = 20;

export interface AdmitCardDeps {
  db: Db;
  printer: PdfPrinter;
  mail: MailDispatcher;
  publicUrl: string;
  pokeJobs(): void;
}

const keys = new WeakMap<Db, Promise<string>>();
/** The server's admit-card key (decision 0154), read once per database. */
export function admitCardKey(db: Db): Promise<string> {
  let key = keys.get(db);
  if (!key) {
    key = getOrCreateSecret(db, 'admit_card_secret');
    keys.set(db, key);
  }
  return key;
}

interface CardRow extends Omit<AdmitCardPrint, 'token' | 'issuedAt' | 'center'> {
  registrationId: number;
  tenantId: string;
  status: string;
  admitCardVersion: number;
  admitCardIssuedAt: string | null;
  accommodationStatus: string;
  preferredLanguage: string | null;
  centerName: string | null;
  centerAddress: string | null;
  centerCity: string | null;
  centerState: string | null;
}

const cardSelect = `select r.id::int as "registrationId", r.tenant_id as "tenantId", r.status, r.admit_card_version as "admitCardVersion",
  r.admit_card_issued_at as "admitCardIssuedAt", trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) as "candidateName",
  u.email as "candidateEmail", u.preferred_language as "preferredLanguage", r.roll_number as "rollNumber", pr.name as "projectName",
  e.name as "examName", s.name as "seasonName", r.medium, r.seat_number as "seatNumber", r.accommodations, r.accommodation_status as "accommodationStatus",
  c.name as "centerName", c.address as "centerAddress", c.city as "centerCity", c.state as "centerState",
  coalesce((select json_agg(json_build_object('paperCode', p.code, 'paperTitle', p.title, 'sitsOn', to_char(sp.sits_on, 'YYYY-MM-DD'),
            'startsAt', lpad((sp.starts_at_minute / 60)::text, 2, '0') || ':' || lpad((sp.starts_at_minute % 60)::text, 2, '0'),
            'durationMinutes', sp.duration_minutes, 'mode', sp.mode) order by sp.sits_on, sp.starts_at_minute)
     from season_papers sp join papers p on p.id = sp.paper_id where sp.id = any(r.season_paper_ids)), '[]'::json) as papers
  from registrations r join seasons s on s.id = r.season_id join projects pr on pr.id = r.project_id join exams e on e.id = r.exam_id
  join users u on u.id = r.candidate_id left join exam_centers c on c.id = r.center_id`;

async function cardRow(db: Queryable, registrationId: number): Promise<CardRow | undefined> {
  const { rows } = await db.query<CardRow>(`${cardSelect} where r.id = $1`, [registrationId]);
  return rows[0];
}

/** The card as printed: null unless an admit card is issued now. */
export async function admitCardFor(db: Db, registrationId: number): Promise<(AdmitCardPrint & { version: number }) | null> {
  const row = await cardRow(db, registrationId);
  if (!row || row.status !== 'AdmitCardIssued' || !row.rollNumber) return null;
  const token = signAdmitToken(await admitCardKey(db), { t: row.tenantId, r: row.registrationId, n: row.rollNumber, v: row.admitCardVersion });
  return {
    candidateName: row.candidateName,
    candidateEmail: row.candidateEmail,
    rollNumber: row.rollNumber,
    projectName: row.projectName,
    examName: row.examName,
    seasonName: row.seasonName,
    medium: row.medium,
    papers: row.papers,
    center: { name: row.centerName ?? '', address: row.centerAddress ?? '', city: row.centerCity ?? '', state: row.centerState ?? '' },
    seatNumber: row.seatNumber,
    accommodations: row.accommodationStatus === 'approved' ? row.accommodations : null,
    issuedAt: new Date(row.admitCardIssuedAt ?? Date.now()).toISOString(),
    token,
    version: row.admitCardVersion,
  };
}

/** Renders one card to PDF (no storing). */
export async function renderAdmitCard(printer: PdfPrinter, card: AdmitCardPrint): Promise<Buffer> {
  const { language } = cardTexts(card.medium);
  const scripts: IndicScript[] = language === 'hi' ? ['devanagari'] : language === 'gu' ? ['gujarati'] : [];
  // One warm page per script: the shell and its fonts load once, each card fills the body (0237).
  const key = `admit-card:${scripts.join(',')}`;
  return printer.printInShell(key, admitCardShell(fonts(scripts)), admitCardPage(card, await qrDataUrl(card.token)));
}

/**
 * The PDF of the registration's current card: the stored one, else rendered now and stored.
 * Null when no card is issued.
 */
export async function admitCardPdf(deps: Pick<AdmitCardDeps, 'db' | 'printer'>, registrationId: number): Promise<{ pdf: Buffer; rollNumber: string } | null> {
  const card = await admitCardFor(deps.db, registrationId);
  if (!card) return null;
  const { rows } = await deps.db.query<{ pdf: Uint8Array }>(`select pdf from admit_card_files where registration_id = $1 and version = $2`, [
    registrationId,
    card.version,
  ]);
  if (rows[0]) return { pdf: Buffer.from(rows[0].pdf), rollNumber: card.rollNumber };
  const pdf = await renderAdmitCard(deps.printer, card);
  await deps.db.query(`insert into admit_card_files (registration_id, version, pdf) values ($1, $2, $3) on conflict do nothing`, [
    registrationId,
    card.version,
    pdf,
  ]);
  return { pdf, rollNumber: card.rollNumber };
}

const notificationKindOf: Record<RegistrationMailKind, NotificationKind> = {
  approved: 'registration.approved',
  rejected: 'registration.rejected',
  admitCardIssued: 'admitcard.issued',
};

/** E-mails the candidate about their registration (approved, rejected with the reason, admit card issued). */
export async function mailCandidate(deps: Pick<AdmitCardDeps, 'db' | 'mail' | 'publicUrl'>, kind: RegistrationMailKind, registrationId: number) {
  const { rows } = await deps.db.query<{
    candidateId: string;
    email: string;
    firstName: string;
    preferredLanguage: string | null;
    medium: string;
    examName: string;
    seasonName: string;
    reason: string | null;
    rollNumber: string | null;
    centerName: string | null;
  }>(
    `select u.id as "candidateId", u.email, u.first_name as "firstName", u.preferred_language as "preferredLanguage", r.medium, e.name as "examName", s.name as "seasonName",
            r.reason, r.roll_number as "rollNumber", c.name as "centerName"
     from registrations r join users u on u.id = r.candidate_id join exams e on e.id = r.exam_id join seasons s on s.id = r.season_id
     left join exam_centers c on c.id = r.center_id where r.id = $1`,
    [registrationId],
  );
  const r = rows[0];
  if (!r) return;
  // The notification center, and the e-mail only if the candidate wants it (issue 21, docs/decisions/0260).
  const told = await notify(deps.db, r.candidateId, notificationKindOf[kind], {
    params: { examName: r.examName, seasonName: r.seasonName, ...(r.rollNumber ? { rollNumber: r.rollNumber } : {}) },
    link: '/registrations/mine',
    mail: false,
  });
  if (told && !told.email) return;
  const language = candidateMailLanguage(r.preferredLanguage, r.medium);
  deps.mail.dispatch(registrationMail(kind, language, { email: r.email, name: r.firstName ?? '' }, r, deps.publicUrl));
}

/**
 * Issues an Allocated registration's admit card (registration.issueAdmitCard, conditional on the
 * status and version it was read at): a new admit-card version, history, in one statement pair.
 */
export async function issueAdmitCard(db: Db, registrationId: number, userId: string | null): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: number }>(
      `update registrations set status = 'AdmitCardIssued', version = version + 1, admit_card_version = admit_card_version + 1,
              admit_card_issued_at = now(), updated_by = $2, updated_at = now()
       where id = $1 and status = 'Allocated' returning id::int as id`,
      [registrationId, userId],
    );
    if (!rows[0]) return false;
    await tx.query(
      `insert into registration_history (registration_id, event, from_status, to_status, actor_id) values ($1, 'registration.issueAdmitCard', 'Allocated', 'AdmitCardIssued', $2)`,
      [registrationId, userId],
    );
    return true;
  });
}

// ---- batches ---------------------------------------------------------------------------------

export interface AdmitBatch {
  batchId: number;
  seasonId: number;
  centerId: number | null;
  state: string;
  message: string | null;
  total: number;
  issued: number;
  failed: number;
  elapsedMs: number;
  cardsPerSecond: number | null;
  createdOn: string;
  finishedOn: string | null;
}

const batchColumns = `b.id::int as "batchId", b.season_id::int as "seasonId", b.center_id::int as "centerId", b.state, b.message, b.total, b.issued, b.failed,
  b.elapsed_ms as "elapsedMs", b.created_at as "createdOn", b.finished_at as "finishedOn"`;
const toBatch = (b: Omit<AdmitBatch, 'cardsPerSecond'>): AdmitBatch => ({
  ...b,
  cardsPerSecond: b.elapsedMs > 0 && b.issued > 0 ? Math.round((b.issued / (b.elapsedMs / 1000)) * 10) / 10 : null,
  createdOn: new Date(b.createdOn).toISOString(),
  finishedOn: b.finishedOn ? new Date(b.finishedOn).toISOString() : null,
});

export async function listBatches(db: Queryable, seasonId: number): Promise<AdmitBatch[]> {
  const { rows } = await db.query<Omit<AdmitBatch, 'cardsPerSecond'>>(
    `select ${batchColumns} from admit_card_batches b where b.season_id = $1 order by b.created_at desc, b.id desc limit 20`,
    [seasonId],
  );
  return rows.map(toBatch);
}

/** Queues a batch for the season's Allocated registrations (all, or one center's). */
export async function queueBatch(
  deps: Pick<AdmitCardDeps, 'db' | 'pokeJobs'>,
  scope: { tenantId: string; projectId: number; seasonId: number; centerId: number | null; userId: string },
): Promise<AdmitBatch> {
  const id = await deps.db.transaction(async (tx) => {
    const { rows: counted } = await tx.query<{ n: number }>(
      `select count(*)::int as n from registrations where season_id = $1 and status = 'Allocated' and ($2::bigint is null or center_id = $2)`,
      [scope.seasonId, scope.centerId],
    );
    const { rows } = await tx.query<{ id: number }>(
      `insert into admit_card_batches (tenant_id, project_id, season_id, center_id, total, created_by) values ($1, $2, $3, $4, $5, $6) returning id::int as id`,
      [scope.tenantId, scope.projectId, scope.seasonId, scope.centerId, counted[0].n, scope.userId],
    );
    const jobId = await enqueueJob(tx, ADMIT_CARD_BATCH_JOB, { batchId: rows[0].id }, { tenantId: scope.tenantId, createdBy: scope.userId });
    await tx.query(`update admit_card_batches set job_id = $2 where id = $1`, [rows[0].id, jobId]);
    return rows[0].id;
  });
  deps.pokeJobs();
  const { rows } = await deps.db.query<Omit<AdmitBatch, 'cardsPerSecond'>>(`select ${batchColumns} from admit_card_batches b where b.id = $1`, [id]);
  return toBatch(rows[0]);
}

/**
 * The batch job: takes the season's Allocated registrations in id order, ADMIT_BATCH_STEP at a
 * time; each is issued (conditionally: one moved or cancelled meanwhile is skipped), its PDF
 * rendered and stored, and the candidate mailed. Rendering runs two pages at a time (the
 * printer's limit). A rerun continues with the registrations still Allocated.
 */
export async function runAdmitCardBatch(deps: AdmitCardDeps, job: Job<{ batchId: number }>, log?: FastifyBaseLogger): Promise<void> {
  const { db } = deps;
  const { rows } = await db.query<{ id: number; seasonId: number; centerId: number | null; state: string; createdBy: string | null }>(
    `select id::int as id, season_id::int as "seasonId", center_id::int as "centerId", state, created_by as "createdBy" from admit_card_batches where id = $1`,
    [job.payload.batchId],
  );
  const batch = rows[0];
  if (!batch || batch.state === 'finished' || batch.state === 'failed') return;
  await db.query(`update admit_card_batches set state = 'running', started_at = coalesce(started_at, now()) where id = $1`, [batch.id]);
  let after = 0;
  for (;;) {
    const { rows: next } = await db.query<{ id: number }>(
      `select id::int as id from registrations where season_id = $1 and status = 'Allocated' and ($2::bigint is null or center_id = $2) and id > $3
       order by id limit ${ADMIT_BATCH_STEP}`,
      [batch.seasonId, batch.centerId, after],
    );
    if (!next.length) break;
    after = next[next.length - 1].id;
    const started = performance.now();
    const outcomes = await Promise.all(
      next.map(async ({ id }) => {
        try {
          if (!(await issueAdmitCard(db, id, batch.createdBy))) return 'skipped' as const;
          await admitCardPdf(deps, id);
          await mailCandidate(deps, 'admitCardIssued', id);
          return 'issued' as const;
        } catch (error) {
          log?.warn({ err: error, registrationId: id }, 'admit card could not be issued');
          return 'failed' as const;
        }
      }),
    );
    const elapsed = Math.round(performance.now() - started);
    await db.query(`update admit_card_batches set issued = issued + $2, failed = failed + $3, elapsed_ms = elapsed_ms + $4 where id = $1`, [
      batch.id,
      outcomes.filter((o) => o === 'issued').length,
      outcomes.filter((o) => o === 'failed').length,
      elapsed,
    ]);
    await db.query(`update jobs set locked_until = now() + make_interval(secs => $2) where id = $1`, [job.id, JOB_LEASE_SECONDS]);
  }
  const { rows: done } = await db.query<{ issued: number; failed: number; elapsed: number }>(
    `select issued, failed, elapsed_ms as elapsed from admit_card_batches where id = $1`,
    [batch.id],
  );
  const d = done[0];
  const rate = d.elapsed > 0 ? (d.issued / (d.elapsed / 1000)).toFixed(1) : '0';
  await db.query(`update admit_card_batches set state = 'finished', finished_at = now(), message = $2 where id = $1`, [
    batch.id,
    `Issued ${d.issued} admit cards (${rate} per second); ${d.failed} failed.`,
  ]);
  await tellBatchCreator(db, batch);
}

/**
 * Whoever queued the batch hears that it is over, with its counts (issue 21, kind
 * `bulkjob.finished`): it may run for minutes, and they need not keep the season open meanwhile.
 */
async function tellBatchCreator(db: Db, batch: { id: number; seasonId: number; createdBy: string | null }) {
  if (!batch.createdBy) return;
  const { rows } = await db.query<{ seasonName: string; state: string; total: number; issued: number; failed: number }>(
    `select s.name as "seasonName", b.state, b.total, b.issued, b.failed from admit_card_batches b join seasons s on s.id = b.season_id where b.id = $1`,
    [batch.id],
  );
  const b = rows[0];
  if (!b) return;
  await notify(db, batch.createdBy, 'bulkjob.finished', {
    params: { job: 'admitCards', seasonName: b.seasonName, state: b.state, total: b.total, issued: b.issued, failed: b.failed },
    titleKey: 'kinds.bulkjob.admitCards',
    link: `/workspace/seasons/${batch.seasonId}`,
  });
}
