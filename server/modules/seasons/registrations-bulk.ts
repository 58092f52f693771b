import ExcelJS from 'exceljs';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '#server/db/client.ts';
import { AppError, conflict, notFound } from '#server/lib/errors.ts';
import { cleanFileName, detectFileType } from '#server/lib/file-types.ts';
import { enqueueJob, JOB_LEASE_SECONDS, type Job } from '#server/lib/jobs.ts';
import { orderByClause, paged, pageWindow } from '#server/lib/paging.ts';
import { checkUncompressedSize, MAX_UPLOAD_BYTES, readFirstSheet, SpreadsheetRefused, streamWorkbook } from '#server/modules/users/users-xlsx.ts';
import { notify } from '#server/modules/notifications/notify.ts';
import { mailCandidate, type AdmitCardDeps } from './admit-cards.ts';

/**
 * Bulk registration from .xlsx (issue 18, docs/decisions/0233), on the users' bulk-upload
 * machinery: the same reader and limits (≤ 5 MB, ≤ 50 MB uncompressed, ≤ 10,000 rows, type by
 * content), a job that checks every row and registers the good ones in committed batches (a
 * rerun continues after the last batch), counts the screen follows, and an error file with the
 * template's columns and a reason per refused row. The candidates must have accounts (bulk-upload
 * them as users first); a row registers them as if they had registered themselves, Submitted,
 * or Approved at once when the registrar asked for it (history says who did it).
 */
export const REGISTRATION_UPLOAD_JOB = 'registrations.bulkUpload';
const BATCH = 500;

export const registrationColumns = ['email', 'exam', 'papers', 'medium', 'preferredCity', 'extraTimePercent', 'scribe', 'largePrint'] as const;
type Column = (typeof registrationColumns)[number];
const required: readonly Column[] = ['email', 'exam', 'medium', 'preferredCity'];
const exampleRow: Record<Column, string> = {
  email: 'candidate@example.com',
  exam: 'MATH-10',
  papers: '',
  medium: 'en',
  preferredCity: 'Ahmedabad',
  extraTimePercent: '0',
  scribe: 'no',
  largePrint: 'no',
};

export async function buildRegistrationTemplate(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Exam Portal';
  const sheet = workbook.addWorksheet('Registrations');
  sheet.columns = registrationColumns.map((key) => ({ header: key, key, width: Math.max(14, key.length + 6) }));
  sheet.getRow(1).font = { bold: true };
  sheet.addRow(exampleRow);
  const notes = workbook.addWorksheet('Notes');
  notes.columns = [
    { header: 'column', key: 'c', width: 18 },
    { header: 'meaning', key: 'm', width: 90 },
  ];
  for (const [c, m] of [
    ['email', 'The candidate’s account e-mail (upload them as users first).'],
    ['exam', 'The exam’s code.'],
    ['papers', 'Paper codes separated by commas; empty: every paper of the exam scheduled in the season.'],
    ['medium', 'A language of the project: en, hi, gu …'],
    ['preferredCity', 'A city with a center hosting the season.'],
    ['extraTimePercent', 'Accommodation: extra time in % (0–100).'],
    ['scribe', 'Accommodation: yes / no.'],
    ['largePrint', 'Accommodation: yes / no.'],
  ])
    notes.addRow({ c, m });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export interface UploadScope {
  tenantId: string;
  projectId: number;
  seasonId: number;
  userId: string;
}

/** Checks the file and the season, stores the upload and queues its job (202). */
export async function acceptRegistrationUpload(
  deps: Pick<AdmitCardDeps, 'db' | 'pokeJobs'>,
  scope: UploadScope,
  file: { fileName: string | undefined; content: Buffer },
  approve: boolean,
) {
  const name = cleanFileName(file.fileName, 'registrations.xlsx');
  if (file.content.length === 0) throw new AppError(400, `${name} is empty.`);
  if (file.content.length > MAX_UPLOAD_BYTES) throw new AppError(413, 'The file must be at most 5 MB.');
  if (detectFileType(file.content)?.kind !== 'xlsx') throw new AppError(415, `${name} is not an Excel workbook (.xlsx). Start from the template.`);
  try {
    checkUncompressedSize(file.content);
  } catch (error) {
    if (error instanceof SpreadsheetRefused) throw new AppError(400, error.message, { extra: { reason: 'fileRefused' } });
    throw error;
  }
  const id = await deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: number }>(
      `insert into registration_uploads (tenant_id, project_id, season_id, file_name, content, approve, uploaded_by) values ($1, $2, $3, $4, $5, $6, $7)
       returning id::int as id`,
      [scope.tenantId, scope.projectId, scope.seasonId, name, file.content, approve, scope.userId],
    );
    const jobId = await enqueueJob(tx, REGISTRATION_UPLOAD_JOB, { uploadId: rows[0].id }, { tenantId: scope.tenantId, createdBy: scope.userId });
    await tx.query(`update registration_uploads set job_id = $2 where id = $1`, [rows[0].id, jobId]);
    return rows[0].id;
  });
  deps.pokeJobs();
  return { jobId: id, fileName: name, state: 'queued', message: 'The file has been received; its registrations are being made.' };
}

interface UploadRow {
  id: number;
  tenantId: string;
  projectId: number;
  seasonId: number;
  content: Uint8Array;
  approve: boolean;
  uploadedBy: string | null;
  state: string;
  rowsProcessed: number;
}

interface Checked {
  rowNumber: number;
  cells: Record<Column, string>;
  error?: string;
  value?: { candidateId: string; examId: number; seasonPaperIds: number[]; medium: string; city: string; accommodations: object; requested: boolean };
}

const yesNo = (value: string): boolean | undefined => {
  const v = value.trim().toLowerCase();
  if (['', 'no', 'n', 'false', '0'].includes(v)) return false;
  if (['yes', 'y', 'true', '1'].includes(v)) return true;
  return undefined;
};

async function checkRows(db: Queryable, upload: UploadRow, parsed: { header: string[]; rows: Array<{ rowNumber: number; cells: string[] }> }) {
  const indexes = new Map<Column, number>();
  parsed.header.forEach((title, i) => {
    const column = registrationColumns.find((c) => c.toLowerCase() === title.trim().toLowerCase());
    if (column && !indexes.has(column)) indexes.set(column, i);
  });
  const missing = required.filter((c) => !indexes.has(c));
  if (missing.length) throw new SpreadsheetRefused(`The header row lacks the column(s) ${missing.join(', ')}. Start from the template.`);

  const { rows: season } = await db.query<{ languages: string[] }>(`select pr.languages from projects pr where pr.id = $1`, [upload.projectId]);
  const languages = season[0]?.languages ?? [];
  const { rows: papers } = await db.query<{ id: number; examId: number; examCode: string; paperCode: string }>(
    `select sp.id::int as id, sp.exam_id::int as "examId", e.code as "examCode", p.code as "paperCode"
     from season_papers sp join exams e on e.id = sp.exam_id join papers p on p.id = sp.paper_id where sp.season_id = $1`,
    [upload.seasonId],
  );
  const { rows: cities } = await db.query<{ city: string }>(
    `select distinct c.city from season_centers sc join exam_centers c on c.id = sc.center_id where sc.season_id = $1 and c.is_active and sc.seats > 0`,
    [upload.seasonId],
  );
  const emails = [...new Set(parsed.rows.map((r) => (r.cells[indexes.get('email')!] ?? '').trim().toLowerCase()).filter(Boolean))];
  const { rows: users } = await db.query<{ id: string; email: string }>(
    `select id, lower(email) as email from users where tenant_id = $1 and is_active and lower(email) = any($2::text[])`,
    [upload.tenantId, emails],
  );
  const userByEmail = new Map(users.map((u) => [u.email, u.id]));
  const { rows: live } = await db.query<{ candidateId: string; examId: number }>(
    `select candidate_id as "candidateId", exam_id::int as "examId" from registrations where season_id = $1 and status not in ('Rejected', 'Cancelled')`,
    [upload.seasonId],
  );
  const taken = new Set(live.map((l) => `${l.candidateId}:${l.examId}`));
  const seen = new Map<string, number>();

  return parsed.rows.map((row): Checked => {
    const cells = {} as Record<Column, string>;
    for (const c of registrationColumns) cells[c] = indexes.has(c) ? (row.cells[indexes.get(c)!] ?? '').trim().slice(0, 500) : '';
    const problems: string[] = [];
    for (const c of required) if (!cells[c]) problems.push(`${c} is required.`);
    if (registrationColumns.every((c) => cells[c] === exampleRow[c])) problems.push("This is the template's example row; replace it with real data.");
    const candidateId = userByEmail.get(cells.email.toLowerCase());
    if (cells.email && !candidateId) problems.push(`No active account has the e-mail ${cells.email}: upload the candidate as a user first.`);
    const examPapers = papers.filter((p) => p.examCode.toLowerCase() === cells.exam.toLowerCase());
    if (cells.exam && !examPapers.length) problems.push(`The exam ${cells.exam} has no paper scheduled in this season.`);
    const wanted = cells.papers
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const chosen = wanted.length ? examPapers.filter((p) => wanted.some((w) => w.toLowerCase() === p.paperCode.toLowerCase())) : examPapers;
    const unknown = wanted.filter((w) => !examPapers.some((p) => p.paperCode.toLowerCase() === w.toLowerCase()));
    if (unknown.length && examPapers.length) problems.push(`${unknown.join(', ')}: not a paper of ${cells.exam} in this season.`);
    if (cells.medium && !languages.includes(cells.medium)) problems.push(`medium must be one of ${languages.join(', ')}.`);
    const city = cities.find((c) => c.city.toLowerCase() === cells.preferredCity.toLowerCase())?.city;
    if (cells.preferredCity && !city) problems.push(`preferredCity must be one of ${cities.map((c) => c.city).join(', ')}.`);
    const extra = cells.extraTimePercent === '' ? 0 : Number(cells.extraTimePercent);
    if (!Number.isInteger(extra) || extra < 0 || extra > 100) problems.push('extraTimePercent must be a whole number from 0 to 100.');
    const scribe = yesNo(cells.scribe);
    const largePrint = yesNo(cells.largePrint);
    if (scribe === undefined) problems.push('scribe must be yes or no.');
    if (largePrint === undefined) problems.push('largePrint must be yes or no.');
    const examId = examPapers[0]?.examId;
    if (candidateId && examId) {
      const key = `${candidateId}:${examId}`;
      if (taken.has(key)) problems.push('This candidate is already registered for this exam in this season.');
      else if (seen.has(key)) problems.push(`The same candidate and exam are in row ${seen.get(key)} of this file.`);
      else seen.set(key, row.rowNumber);
    }
    if (problems.length) return { rowNumber: row.rowNumber, cells, error: problems.join(' ') };
    const accommodations = { extraTimePercent: extra, scribe: scribe!, largePrint: largePrint! };
    return {
      rowNumber: row.rowNumber,
      cells,
      value: {
        candidateId: candidateId!,
        examId: examId!,
        seasonPaperIds: chosen.map((p) => p.id),
        medium: cells.medium,
        city: city!,
        accommodations,
        requested: extra > 0 || scribe! || largePrint!,
      },
    };
  });
}

class Overtaken extends Error {}

/** The job of one upload (see the file comment). */
export async function runRegistrationUpload(deps: Pick<AdmitCardDeps, 'db' | 'mail' | 'publicUrl'>, job: Job<{ uploadId: number }>, log?: FastifyBaseLogger) {
  const { db } = deps;
  const { rows } = await db.query<UploadRow>(
    `select id::int as id, tenant_id as "tenantId", project_id::int as "projectId", season_id::int as "seasonId", content, approve,
            uploaded_by as "uploadedBy", state, rows_processed as "rowsProcessed" from registration_uploads where id = $1`,
    [job.payload.uploadId],
  );
  const upload = rows[0];
  if (!upload || upload.state === 'finished' || upload.state === 'failed') return;
  await db.query(`update registration_uploads set state = 'running', started_at = coalesce(started_at, now()) where id = $1`, [upload.id]);
  const fail = async (message: string) => {
    await db.query(`update registration_uploads set state = 'failed', message = $2, finished_at = now() where id = $1`, [upload.id, message]);
    await tellUploader(db, upload);
  };
  const { rows: season } = await db.query<{ status: string }>(`select status from seasons where id = $1`, [upload.seasonId]);
  if (!['RegistrationOpen', 'RegistrationClosed'].includes(season[0]?.status ?? '')) {
    await fail(`The season is ${season[0]?.status ?? 'gone'}: registrations are taken only while it is open or just closed.`);
    return;
  }
  let checked: Checked[];
  try {
    checked = await checkRows(db, upload, await readFirstSheet(Buffer.from(upload.content)));
  } catch (error) {
    if (error instanceof SpreadsheetRefused) {
      await fail(error.message);
      return;
    }
    throw error;
  }
  await db.query(`update registration_uploads set total_rows = $2 where id = $1`, [upload.id, checked.length]);
  const status = upload.approve ? 'Approved' : 'Submitted';
  for (let start = upload.rowsProcessed; start < checked.length; start += BATCH) {
    const batch = checked.slice(start, start + BATCH);
    const good = batch.filter((r) => r.value);
    const failed = batch.filter((r) => r.error);
    const created = await db
      .transaction(async (tx) => {
        const claimed = await tx.query(`update registration_uploads set rows_processed = $2 where id = $1 and rows_processed = $3`, [
          upload.id,
          start + batch.length,
          start,
        ]);
        if (claimed.rowCount !== 1) throw new Overtaken();
        let ids: number[] = [];
        if (good.length) {
          const v = good.map((r) => r.value!);
          const inserted = await tx.query<{ id: number }>(
            `insert into registrations (tenant_id, project_id, season_id, exam_id, candidate_id, season_paper_ids, medium, preferred_city, accommodations,
                                        accommodation_status, status, updated_by)
             select $1, $2, $3, t.exam, t.candidate, string_to_array(t.papers, ',')::bigint[], t.medium, t.city, t.acc::jsonb,
                    case when t.requested then 'requested' else 'none' end, $4, $5
             from unnest($6::bigint[], $7::uuid[], $8::text[], $9::text[], $10::text[], $11::text[], $12::boolean[])
                  as t(exam, candidate, papers, medium, city, acc, requested)
             on conflict do nothing
             returning id::int as id`,
            [
              upload.tenantId,
              upload.projectId,
              upload.seasonId,
              status,
              upload.uploadedBy,
              v.map((x) => x.examId),
              v.map((x) => x.candidateId),
              v.map((x) => x.seasonPaperIds.join(',')),
              v.map((x) => x.medium),
              v.map((x) => x.city),
              v.map((x) => JSON.stringify(x.accommodations)),
              v.map((x) => x.requested),
            ],
          );
          ids = inserted.rows.map((r) => r.id);
          await tx.query(
            `insert into registration_history (registration_id, event, to_status, actor_id, details) select unnest($1::bigint[]), 'registration.submit', 'Submitted', $2, $3`,
            [ids, upload.uploadedBy, JSON.stringify({ bulkUpload: upload.id })],
          );
          if (upload.approve) {
            await tx.query(
              `insert into registration_history (registration_id, event, from_status, to_status, actor_id) select unnest($1::bigint[]), 'registration.approve', 'Submitted', 'Approved', $2`,
              [ids, upload.uploadedBy],
            );
          }
        }
        // A row raced by a registration made meanwhile (the live-registration index) counts as refused.
        const raced = good.length - ids.length;
        const refused = [...failed.map((r) => ({ rowNumber: r.rowNumber, cells: r.cells, reason: r.error! }))];
        if (raced > 0) {
          const { rows: made } = await tx.query<{ candidateId: string; examId: number }>(
            `select candidate_id as "candidateId", exam_id::int as "examId" from registrations where id = any($1::bigint[])`,
            [ids],
          );
          const madeKeys = new Set(made.map((m) => `${m.candidateId}:${m.examId}`));
          for (const r of good)
            if (!madeKeys.has(`${r.value!.candidateId}:${r.value!.examId}`))
              refused.push({ rowNumber: r.rowNumber, cells: r.cells, reason: 'This candidate registered for this exam meanwhile.' });
        }
        if (refused.length) {
          await tx.query(
            `insert into registration_upload_errors (upload_id, row_number, cells, reason) select $1, unnest($2::int[]), unnest($3::jsonb[]), unnest($4::text[]) on conflict do nothing`,
            [upload.id, refused.map((r) => r.rowNumber), refused.map((r) => JSON.stringify(r.cells)), refused.map((r) => r.reason)],
          );
        }
        await tx.query(`update registration_uploads set created_count = created_count + $2, failed_count = failed_count + $3 where id = $1`, [
          upload.id,
          ids.length,
          refused.length,
        ]);
        await tx.query(`update jobs set locked_until = now() + make_interval(secs => $2) where id = $1`, [job.id, JOB_LEASE_SECONDS]);
        return ids;
      })
      .catch((error: unknown) => {
        if (error instanceof Overtaken) return undefined;
        throw error;
      });
    if (!created) {
      log?.warn({ uploadId: upload.id }, 'another runner has taken over this registration upload; this one stops');
      return;
    }
    if (upload.approve) for (const id of created) await mailCandidate(deps, 'approved', id);
  }
  const { rows: counts } = await db.query<{ created: number; failed: number; total: number }>(
    `select created_count as created, failed_count as failed, total_rows as total from registration_uploads where id = $1`,
    [upload.id],
  );
  const c = counts[0];
  await db.query(`update registration_uploads set state = 'finished', finished_at = now(), message = $2 where id = $1`, [
    upload.id,
    `Registered ${c.created} of ${c.total} rows; ${c.failed} rows failed.`,
  ]);
  await tellUploader(db, upload);
}

/** The uploader hears that the job is over, finished or failed, with its counts (issue 21, kind `bulkjob.finished`). */
async function tellUploader(db: Db, upload: Pick<UploadRow, 'id' | 'uploadedBy'>) {
  if (!upload.uploadedBy) return;
  const { rows } = await db.query<{ fileName: string; state: string; created: number; failed: number; total: number }>(
    `select file_name as "fileName", state, created_count as created, failed_count as failed, total_rows as total from registration_uploads where id = $1`,
    [upload.id],
  );
  const u = rows[0];
  if (!u) return;
  await notify(db, upload.uploadedBy, 'bulkjob.finished', {
    params: { job: 'registrations', fileName: u.fileName, state: u.state, created: u.created, failed: u.failed, total: u.total },
    link: '/workspace/registrations',
  });
}

interface UploadStatusRow {
  jobId: number;
  seasonId: number;
  fileName: string;
  state: string;
  message: string | null;
  approve: boolean;
  totalRows: number;
  processedRows: number;
  createdCount: number;
  failedCount: number;
  createdOn: string;
  finishedOn: string | null;
}

const statusColumns = `u.id::int as "jobId", u.season_id::int as "seasonId", u.file_name as "fileName", u.state, u.message, u.approve, u.total_rows as "totalRows",
  u.rows_processed as "processedRows", u.created_count as "createdCount", u.failed_count as "failedCount", u.created_at as "createdOn", u.finished_at as "finishedOn"`;

const toStatus = (r: UploadStatusRow) => ({
  ...r,
  hasErrorFile: (r.state === 'finished' && r.failedCount > 0) || r.state === 'failed',
  createdOn: new Date(r.createdOn).toISOString(),
  finishedOn: r.finishedOn ? new Date(r.finishedOn).toISOString() : null,
});

export async function searchRegistrationUploads(
  db: Queryable,
  projectId: number,
  body: { seasonId?: number | null; pageNumber?: number; pageSize?: number; orderBy?: string[] | null },
) {
  const window = pageWindow(body);
  const params = [projectId, body.seasonId ?? null];
  const where = `u.project_id = $1 and ($2::bigint is null or u.season_id = $2)`;
  const order = orderByClause(body.orderBy, { createdOn: 'u.created_at', fileName: 'lower(u.file_name)', state: 'u.state' }, 'u.created_at desc', 'u.id desc');
  const [page, count] = await Promise.all([
    db.query<UploadStatusRow>(
      `select ${statusColumns} from registration_uploads u where ${where} order by ${order} limit ${window.limit} offset ${window.offset}`,
      params,
    ),
    db.query<{ n: number }>(`select count(*)::int as n from registration_uploads u where ${where}`, params),
  ]);
  return paged(page.rows.map(toStatus), count.rows[0].n, window);
}

export async function registrationErrorFile(db: Db, projectId: number, uploadId: number) {
  const { rows } = await db.query<UploadStatusRow>(`select ${statusColumns} from registration_uploads u where u.project_id = $1 and u.id = $2`, [
    projectId,
    uploadId,
  ]);
  const upload = rows[0];
  if (!upload) throw notFound('The upload job was not found.');
  if (upload.state !== 'finished' && upload.state !== 'failed')
    throw conflict('The job has not finished yet; the error file is made when it has.', { reason: 'jobRunning', state: upload.state });
  const columns = [
    { header: 'rowNumber', key: 'rowNumber', width: 10 },
    ...registrationColumns.map((key) => ({ header: key, key, width: 20 })),
    { header: 'reason', key: 'reason', width: 60 },
  ];
  const stream = streamWorkbook('Errors', columns, async (add) => {
    if (upload.state === 'failed') {
      add({ rowNumber: null, reason: upload.message });
      return;
    }
    const { rows: errors } = await db.query<{ rowNumber: number; cells: Record<string, string>; reason: string }>(
      `select row_number as "rowNumber", cells, reason from registration_upload_errors where upload_id = $1 order by row_number`,
      [uploadId],
    );
    for (const e of errors) {
      const cells: Record<string, string> = {};
      for (const c of registrationColumns) cells[c] = typeof e.cells[c] === 'string' ? e.cells[c] : '';
      add({ ...cells, rowNumber: e.rowNumber, reason: e.reason });
    }
  });
  return { stream, fileName: `${upload.fileName.replace(/\.xlsx$/i, '')}-errors.xlsx` };
}
