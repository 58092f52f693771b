import { notify } from '#server/modules/notifications/notify.ts';
import ExcelJS from 'exceljs';
import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '#server/db/client.ts';
import { AppError, conflict, notFound } from '#server/lib/errors.ts';
import { detectFileType, cleanFileName } from '#server/lib/file-types.ts';
import { enqueueJob, JOB_LEASE_SECONDS, type Job } from '#server/lib/jobs.ts';
import { orderByClause, pageWindow, paged } from '#server/lib/paging.ts';
import { hashPassword } from '#server/lib/passwords.ts';
import type { Principal } from '#server/plugins/access.ts';
import { accountLinkMail, accountTokenLifetimes, validateEmail } from '#server/modules/identity/account-service.ts';
import { identityLimits } from '#server/modules/identity/identity-limits.ts';
import { randomToken, tokenHash } from '#server/modules/identity/token-crypto.ts';
import type { IdentityContext, RequestMeta } from '#server/modules/identity/identity-context.ts';
import { passwordMessages, passwordProblems } from '#server/modules/identity/password-policy.ts';
import { formatAtOffset } from '#server/lib/time-zone-offset.ts';
import { DEFAULT_MAIL_LANGUAGE, type MailLanguage } from '#server/mail/mail-language.ts';
import { headerKey, templateHeaders, templateTexts } from './template-headers.ts';
import { exportUsers, insertUsers, takenIdentifiers, tenantRoles, type NewUser, type UserFilters } from './users-repository.ts';
import { DEFAULT_ROLE, scopeOf } from './users-service.ts';
import { checkUncompressedSize, MAX_UPLOAD_BYTES, readFirstSheet, SpreadsheetRefused, streamWorkbook } from './users-xlsx.ts';

export const BULK_UPLOAD_JOB = 'users.bulkUpload';
/** Rows committed together; a job that dies resumes after the last committed batch. */
export const BATCH_SIZE = 500;
/** Most rows one export writes. */
export const MAX_EXPORT_ROWS = 100_000;

/** The columns of the template, in order; the first four are required. */
export const templateColumns = [
  'firstName',
  'lastName',
  'email',
  'userName',
  'phoneNumber',
  'dateOfBirth',
  'roleName',
  'newPassword',
  'confirmNewPassword',
] as const;
type Column = (typeof templateColumns)[number];
const requiredColumns: readonly Column[] = ['firstName', 'lastName', 'email', 'userName'];
const exampleRow: Record<Column, string> = {
  firstName: 'Asha',
  lastName: 'Patel',
  email: 'asha.patel@example.com',
  userName: 'asha.patel',
  phoneNumber: '+91 98765 43210',
  dateOfBirth: '1998-07-21',
  roleName: DEFAULT_ROLE,
  newPassword: '',
  confirmNewPassword: '',
};

// ---- template ------------------------------------------------------------------------------------

/**
 * The upload template: a Users sheet (header, one example row, a drop-down of roles on
 * roleName) and a Roles sheet the drop-down reads from.
 */
export async function buildTemplate(roleNames: readonly string[], language: MailLanguage = DEFAULT_MAIL_LANGUAGE): Promise<Buffer> {
  const headers = templateHeaders[language];
  const texts = templateTexts[language];
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Exam Portal';
  const users = workbook.addWorksheet('Users');
  users.columns = templateColumns.map((key) => ({ header: headers[key], key, width: Math.max(18, headers[key].length + 4) }));
  users.getRow(1).font = { bold: true };
  users.addRow(exampleRow);
  const roles = workbook.addWorksheet('Roles');
  roles.columns = [{ header: texts.rolesHeader, key: 'roleName', width: 24 }];
  for (const name of roleNames) roles.addRow({ roleName: name });
  const roleColumn = String.fromCharCode('A'.charCodeAt(0) + templateColumns.indexOf('roleName'));
  for (let row = 2; row <= 10_001; row += 1) {
    users.getCell(`${roleColumn}${row}`).dataValidation = {
      type: 'list',
      allowBlank: true,
      formulae: [`Roles!$A$2:$A$${roleNames.length + 1}`],
      showErrorMessage: true,
      errorTitle: texts.unknownRole,
      error: texts.chooseRole,
    };
  }
  const dateColumn = String.fromCharCode('A'.charCodeAt(0) + templateColumns.indexOf('dateOfBirth'));
  users.getColumn(dateColumn).numFmt = '@';
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

// ---- upload --------------------------------------------------------------------------------------

export interface BulkDeps {
  identity: IdentityContext;
  pokeJobs(): void;
}

/** Checks the file (size, type by content, real uncompressed size) and queues its job. */
export async function acceptUpload(deps: BulkDeps, p: Principal, file: { fileName: string | undefined; content: Buffer }, redirectUrl: string | undefined) {
  const name = cleanFileName(file.fileName, 'users.xlsx');
  if (file.content.length === 0) throw new AppError(400, `${name} is empty.`);
  if (file.content.length > MAX_UPLOAD_BYTES) throw new AppError(413, 'The file must be at most 5 MB.');
  if (detectFileType(file.content)?.kind !== 'xlsx') throw new AppError(415, `${name} is not an Excel workbook (.xlsx). Start from the template.`);
  try {
    checkUncompressedSize(file.content);
  } catch (error) {
    if (error instanceof SpreadsheetRefused) throw new AppError(400, error.message, { extra: { reason: 'fileRefused' } });
    throw error;
  }
  const id = await deps.identity.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `insert into user_uploads (tenant_id, file_name, content, size_bytes, redirect_url, institute_id, reseller_id, uploaded_by, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
      [p.tenantId, name, file.content, file.content.length, redirectUrl ?? null, p.instituteId, p.resellerId, p.userId, deps.identity.clock.now()],
    );
    const jobId = await enqueueJob(tx, BULK_UPLOAD_JOB, { uploadId: rows[0].id }, { tenantId: p.tenantId, createdBy: p.userId });
    await tx.query(`update user_uploads set job_id = $2 where id = $1`, [rows[0].id, jobId]);
    return rows[0].id;
  });
  deps.pokeJobs();
  return { jobId: id, fileName: name, state: 'queued', message: 'The file has been received; its users are being created.' };
}

// ---- the job -------------------------------------------------------------------------------------

class OvertakenError extends Error {}

interface UploadRow {
  id: string;
  tenantId: string;
  content: Uint8Array;
  redirectUrl: string | null;
  instituteId: string | null;
  resellerId: string | null;
  uploadedBy: string | null;
  state: string;
  rowsProcessed: number;
}

interface CheckedRow {
  rowNumber: number;
  cells: Record<Column, string>;
  error?: string;
  roleId?: string;
}

const userNamePattern = /^[^\s<>"'`]{1,100}$/;
const phonePattern = /^[0-9+()\- .]{0,32}$/;

/** Uploader's permissions now (a role taken away since the upload counts). */
async function permissionsOf(db: Queryable, userId: string): Promise<Set<string>> {
  const { rows } = await db.query<{ permission: string }>(
    `select distinct rp.permission from user_roles ur join role_permissions rp on rp.role_id = ur.role_id
     join users u on u.id = ur.user_id and u.is_active where ur.user_id = $1`,
    [userId],
  );
  return new Set(rows.map((r) => r.permission));
}

/** Every accepted header text → its column: the column keys and the template's header in each language. */
const headerColumns = new Map<string, Column>([
  ...templateColumns.map((c) => [headerKey(c), c] as const),
  ...Object.values(templateHeaders).flatMap((labels) => templateColumns.map((c) => [headerKey(labels[c]), c] as const)),
]);

/**
 * Maps the header to template columns by name (case-insensitive), in any of the template's
 * languages or as the column keys; unknown headers such as __proto__ are ignored.
 */
export function columnIndexes(header: readonly string[]): Map<Column, number> {
  const indexes = new Map<Column, number>();
  header.forEach((title, index) => {
    const column = headerColumns.get(headerKey(title));
    if (column && !indexes.has(column)) indexes.set(column, index);
  });
  return indexes;
}

async function checkRows(
  deps: BulkDeps,
  upload: UploadRow,
  parsed: { header: string[]; rows: Array<{ rowNumber: number; cells: string[] }> },
): Promise<CheckedRow[]> {
  const indexes = columnIndexes(parsed.header);
  const missing = requiredColumns.filter((c) => !indexes.has(c));
  if (missing.length) throw new SpreadsheetRefused(`The header row lacks the column(s) ${missing.join(', ')}. Start from the template.`);
  const permissions = upload.uploadedBy ? await permissionsOf(deps.identity.db, upload.uploadedBy) : new Set<string>();
  const roles = await tenantRoles(deps.identity.db, upload.tenantId);
  const rolesByName = new Map(roles.map((r) => [r.name.toLowerCase(), r]));
  const today = deps.identity.clock.now().toISOString().slice(0, 10);
  const seenEmails = new Map<string, number>();
  const seenNames = new Map<string, number>();

  const checked: CheckedRow[] = [];
  for (const row of parsed.rows) {
    const cells = {} as Record<Column, string>;
    for (const column of templateColumns) {
      const index = indexes.get(column);
      cells[column] = index === undefined ? '' : (row.cells[index] ?? '').slice(0, 1024);
    }
    const problems: string[] = [];
    for (const column of requiredColumns) if (!cells[column]) problems.push(`${column} is required.`);
    if (templateColumns.every((c) => cells[c] === exampleRow[c])) problems.push("This is the template's example row; replace it with real data.");
    if (cells.firstName.length > 100 || cells.lastName.length > 100) problems.push('Names must be at most 100 characters.');
    const email = cells.email.toLowerCase();
    if (cells.email && !validateEmail(cells.email).isValid) problems.push(`"${cells.email}" is not a valid e-mail address.`);
    if (cells.userName && !userNamePattern.test(cells.userName)) problems.push('userName must be 1 to 100 characters without spaces.');
    if (!phonePattern.test(cells.phoneNumber)) problems.push('phoneNumber may hold only digits, spaces and + ( ) - .');
    if (cells.dateOfBirth) {
      const valid = /^\d{4}-\d{2}-\d{2}$/.test(cells.dateOfBirth) && !Number.isNaN(Date.parse(`${cells.dateOfBirth}T00:00:00Z`));
      if (!valid) problems.push('dateOfBirth must be a date (yyyy-mm-dd).');
      else if (cells.dateOfBirth > today || cells.dateOfBirth < '1900-01-01') problems.push('dateOfBirth must be between 1900-01-01 and today.');
    }
    const role = rolesByName.get((cells.roleName || DEFAULT_ROLE).toLowerCase());
    if (!role) problems.push(`Unknown role "${cells.roleName}". Use one of: ${roles.map((r) => r.name).join(', ')}.`);
    else if (!role.permissions.every((perm) => permissions.has(perm))) problems.push(`You cannot give the role ${role.name}.`);
    if (cells.newPassword || cells.confirmNewPassword) {
      if (cells.newPassword !== cells.confirmNewPassword) problems.push(passwordMessages.mismatch);
      else {
        const weak = await passwordProblems(cells.newPassword, { ...cells, email: cells.email });
        problems.push(...weak);
      }
    }
    if (email && seenEmails.has(email)) problems.push(`The e-mail address is already used in row ${seenEmails.get(email)} of this file.`);
    const lowerName = cells.userName.toLowerCase();
    if (lowerName && seenNames.has(lowerName)) problems.push(`The user name is already used in row ${seenNames.get(lowerName)} of this file.`);
    if (email && !seenEmails.has(email)) seenEmails.set(email, row.rowNumber);
    if (lowerName && !seenNames.has(lowerName)) seenNames.set(lowerName, row.rowNumber);
    checked.push({ rowNumber: row.rowNumber, cells, roleId: role?.id, error: problems.length ? problems.join(' ') : undefined });
  }
  return checked;
}

/** Passwords never reach the error table or the error file. */
const withoutPasswords = (cells: Record<Column, string>) => ({ ...cells, newPassword: '', confirmNewPassword: '' });

async function markFailed(db: Queryable, uploadId: string, message: string, now: Date) {
  await db.query(`update user_uploads set state = 'failed', message = $2, finished_at = $3 where id = $1`, [uploadId, message, now]);
}

/**
 * The job of one upload: checks every row (required fields, e-mail, user name, phone, date,
 * role, password pairs, duplicates in the file and in the database), then creates the good
 * rows in batches, each batch committed with its error rows and the progress counters, and
 * mails invitations (rows without a password) or confirmation links (rows with one). A rerun
 * (the process died, the lease ran out) continues after the last committed batch; a finished
 * upload is never worked again.
 */
export async function runBulkUpload(deps: BulkDeps, job: Job<{ uploadId: string }>, log: FastifyBaseLogger): Promise<void> {
  const { db, clock } = deps.identity;
  const { rows } = await db.query<UploadRow>(
    `select id, tenant_id as "tenantId", content, redirect_url as "redirectUrl", institute_id as "instituteId",
            reseller_id as "resellerId", uploaded_by as "uploadedBy", state, rows_processed as "rowsProcessed"
     from user_uploads where id = $1`,
    [job.payload.uploadId],
  );
  const upload = rows[0];
  if (!upload || upload.state === 'finished' || upload.state === 'failed') return;
  await db.query(`update user_uploads set state = 'running', started_at = coalesce(started_at, $2) where id = $1`, [upload.id, clock.now()]);

  let checked: CheckedRow[];
  try {
    checked = await checkRows(deps, upload, await readFirstSheet(Buffer.from(upload.content)));
  } catch (error) {
    if (error instanceof SpreadsheetRefused) {
      await markFailed(db, upload.id, error.message, clock.now());
      await tellUploader(db, upload.id, upload.uploadedBy);
      return;
    }
    throw error;
  }
  await db.query(`update user_uploads set total_rows = $2 where id = $1`, [upload.id, checked.length]);
  const meta: RequestMeta = { tenantId: upload.tenantId, ip: null, userAgent: null, acceptLanguage: undefined };

  for (let start = upload.rowsProcessed; start < checked.length; start += BATCH_SIZE) {
    const batch = checked.slice(start, start + BATCH_SIZE);
    const candidates = batch.filter((r) => !r.error);
    const taken = await takenIdentifiers(
      db,
      upload.tenantId,
      candidates.map((r) => r.cells.email),
      candidates.map((r) => r.cells.userName),
    );
    for (const row of candidates) {
      if (taken.emails.has(row.cells.email.toLowerCase())) row.error = 'An account with this e-mail address already exists.';
      else if (taken.userNames.has(row.cells.userName.toLowerCase())) row.error = 'This user name is already taken.';
    }
    const good = batch.filter((r) => !r.error);
    const now = clock.now();
    // argon2 runs on libuv's thread pool: hash the batch's passwords side by side.
    const hashes = await Promise.all(good.map((row) => (row.cells.newPassword ? hashPassword(row.cells.newPassword) : Promise.resolve(null))));
    const newUsers: NewUser[] = [];
    for (const [index, row] of good.entries()) {
      newUsers.push({
        tenantId: upload.tenantId,
        firstName: row.cells.firstName,
        lastName: row.cells.lastName,
        email: row.cells.email,
        userName: row.cells.userName,
        phoneNumber: row.cells.phoneNumber || null,
        dateOfBirth: row.cells.dateOfBirth || null,
        passwordHash: hashes[index],
        loginType: 'local',
        userType: null,
        resellerId: upload.resellerId,
        instituteId: upload.instituteId,
        emailConfirmed: false,
        isFirstTimeLogin: true,
        roleIds: [row.roleId!],
        now,
      });
    }
    const failed = batch.filter((r) => r.error);
    const links = newUsers.map((u) => ({
      purpose: u.passwordHash ? ('confirmEmail' as const) : ('invitation' as const),
      token: randomToken(identityLimits.accountToken.bytes),
    }));
    const ids = await db
      .transaction(async (tx) => {
        // Only the runner that holds the progress at `start` may commit this batch: a second runner
        // (a lease that ran out while this one was still busy) stops instead of doubling work.
        const claimed = await tx.query(`update user_uploads set rows_processed = $2 where id = $1 and rows_processed = $3`, [
          upload.id,
          start + batch.length,
          start,
        ]);
        if (claimed.rowCount !== 1) throw new OvertakenError();
        const created = await insertUsers(tx, newUsers);
        if (created.length) {
          // The users' invitation / confirmation tokens commit with them, in one statement per batch.
          await tx.query(
            `insert into account_tokens (token_hash, user_id, purpose, created_at, expires_at)
           select t.h, t.u, t.p, $4, $4::timestamptz + make_interval(secs => t.s)
           from unnest($1::text[], $2::uuid[], $3::text[], $5::int[]) as t(h, u, p, s)`,
            [links.map((l) => tokenHash(l.token)), created, links.map((l) => l.purpose), now, links.map((l) => accountTokenLifetimes[l.purpose])],
          );
        }
        if (failed.length) {
          await tx.query(
            `insert into user_upload_errors (upload_id, row_number, cells, reason)
           select $1, unnest($2::int[]), unnest($3::jsonb[]), unnest($4::text[]) on conflict do nothing`,
            [upload.id, failed.map((r) => r.rowNumber), failed.map((r) => JSON.stringify(withoutPasswords(r.cells))), failed.map((r) => r.error)],
          );
        }
        await tx.query(`update user_uploads set created_count = created_count + $2, failed_count = failed_count + $3 where id = $1`, [
          upload.id,
          created.length,
          failed.length,
        ]);
        // Keep the job's lease while batches commit, so a long upload is not claimed a second time.
        await tx.query(`update jobs set locked_until = now() + make_interval(secs => $2) where id = $1`, [job.id, JOB_LEASE_SECONDS]);
        return created;
      })
      .catch((error: unknown) => {
        if (error instanceof OvertakenError) return undefined;
        throw error;
      });
    if (!ids) {
      log.warn({ uploadId: upload.id }, 'another runner has taken over this upload; this one stops');
      return;
    }
    ids.forEach((id, i) => {
      const user = newUsers[i];
      const account = { id, tenantId: upload.tenantId, email: user.email, firstName: user.firstName, preferredLanguage: null };
      deps.identity.mail.dispatch(accountLinkMail(deps.identity, meta, account, links[i].purpose, links[i].token, upload.redirectUrl ?? undefined));
    });
    log.debug({ uploadId: upload.id, processed: start + batch.length }, 'bulk upload batch committed');
  }
  const { rows: counts } = await db.query<{ created: number; failed: number; total: number }>(
    `select created_count as created, failed_count as failed, total_rows as total from user_uploads where id = $1`,
    [upload.id],
  );
  const c = counts[0];
  await db.query(`update user_uploads set state = 'finished', finished_at = $2, message = $3 where id = $1`, [
    upload.id,
    clock.now(),
    `Created ${c.created} of ${c.total} users; ${c.failed} rows failed.`,
  ]);
  await tellUploader(db, upload.id, upload.uploadedBy);
}

/** The uploader hears that the job is over, with its counts (issue 21, kind `bulkjob.finished`). */
async function tellUploader(db: Queryable, uploadId: string, uploadedBy: string | null) {
  if (!uploadedBy) return;
  const { rows } = await db.query<{ fileName: string; state: string; created: number; failed: number; total: number }>(
    `select file_name as "fileName", state, created_count as created, failed_count as failed, total_rows as total from user_uploads where id = $1`,
    [uploadId],
  );
  const u = rows[0];
  if (!u) return;
  await notify(db, uploadedBy, 'bulkjob.finished', {
    params: { fileName: u.fileName, state: u.state, created: u.created, failed: u.failed, total: u.total },
    link: '/users/bulk-upload',
  });
}

// ---- status, error file, export ------------------------------------------------------------------

interface JobStatusRow {
  jobId: string;
  fileName: string;
  state: string;
  message: string | null;
  totalRows: number;
  processedRows: number;
  createdCount: number;
  failedCount: number;
  uploadedBy: string | null;
  createdOn: Date;
  finishedOn: Date | null;
}

const statusColumns = `u.id as "jobId", u.file_name as "fileName", u.state, u.message, u.total_rows as "totalRows",
  u.rows_processed as "processedRows", u.created_count as "createdCount", u.failed_count as "failedCount",
  u.uploaded_by as "uploadedBy", u.created_at as "createdOn", u.finished_at as "finishedOn"`;
const uploadScope = `u.tenant_id = $1 and ($2::uuid is null or u.institute_id = $2) and ($3::uuid is null or u.reseller_id = $3)`;

const toStatus = (r: JobStatusRow) => ({
  ...r,
  hasErrorFile: r.state === 'finished' && r.failedCount > 0,
  createdOn: new Date(r.createdOn).toISOString(),
  finishedOn: r.finishedOn ? new Date(r.finishedOn).toISOString() : null,
});

/** POST users/searchuploadedjobstatus: uploads of the caller's tenant and scope, newest first. */
export async function searchJobStatus(
  db: Queryable,
  p: Principal,
  body: { jobId?: string | null; state?: string | null; pageNumber?: number; pageSize?: number; orderBy?: string[] | null },
) {
  const window = pageWindow(body);
  const s = scopeOf(p);
  const params: unknown[] = [s.tenantId, s.instituteId, s.resellerId, body.jobId ?? null, body.state ?? null];
  const where = `${uploadScope} and ($4::uuid is null or u.id = $4) and ($5::text is null or u.state = $5)`;
  const order = orderByClause(body.orderBy, { createdOn: 'u.created_at', fileName: 'lower(u.file_name)', state: 'u.state' }, 'u.created_at desc', 'u.id desc');
  const [page, count] = await Promise.all([
    db.query<JobStatusRow>(
      `select ${statusColumns} from user_uploads u where ${where} order by ${order} limit ${window.limit} offset ${window.offset}`,
      params,
    ),
    db.query<{ n: number }>(`select count(*)::int as n from user_uploads u where ${where}`, params),
  ]);
  return paged(page.rows.map(toStatus), count.rows[0].n, window);
}

/** POST users/downloaderrorfile: the refused rows with their reason, as .xlsx (passwords blank). */
export async function errorFile(db: Queryable, p: Principal, jobId: string) {
  const s = scopeOf(p);
  const { rows } = await db.query<JobStatusRow>(`select ${statusColumns} from user_uploads u where ${uploadScope} and u.id = $4`, [
    s.tenantId,
    s.instituteId,
    s.resellerId,
    jobId,
  ]);
  const upload = rows[0];
  if (!upload) throw notFound('The upload job was not found.');
  if (upload.state !== 'finished' && upload.state !== 'failed')
    throw conflict('The job has not finished yet; the error file is made when it has.', { reason: 'jobRunning', state: upload.state });
  const columns = [
    { header: 'rowNumber', key: 'rowNumber', width: 10 },
    ...templateColumns.map((key) => ({ header: key, key, width: 20 })),
    { header: 'reason', key: 'reason', width: 60 },
  ];
  const stream = streamWorkbook('Errors', columns, async (add) => {
    if (upload.state === 'failed') {
      add({ rowNumber: null, reason: upload.message });
      return;
    }
    let after = 0;
    for (;;) {
      const { rows: errors } = await db.query<{ rowNumber: number; cells: Record<string, string>; reason: string }>(
        `select row_number as "rowNumber", cells, reason from user_upload_errors where upload_id = $1 and row_number > $2 order by row_number limit 1000`,
        [upload.jobId, after],
      );
      for (const e of errors) add({ ...pick(e.cells), rowNumber: e.rowNumber, reason: e.reason });
      if (errors.length < 1000) return;
      after = errors[errors.length - 1].rowNumber;
    }
  });
  const base = upload.fileName.replace(/\.xlsx$/i, '');
  return { stream, fileName: `${base}-errors.xlsx` };
}

/** Only the template's columns of a stored row (nothing else can ride along). */
function pick(cells: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const column of templateColumns) out[column] = typeof cells[column] === 'string' ? cells[column] : '';
  return out;
}

/**
 * POST /users/downloaduserlist: the filtered users, streamed as .xlsx with formula-like cells
 * escaped; createdOn at the caller's UTC offset (TimeZoneOffset), UTC without one.
 */
export function userListFile(db: Queryable, p: Principal, filters: UserFilters, offsetMinutes: number | null = null) {
  const columns = [
    { header: 'firstName', key: 'firstName', width: 18 },
    { header: 'lastName', key: 'lastName', width: 18 },
    { header: 'email', key: 'email', width: 30 },
    { header: 'userName', key: 'userName', width: 20 },
    { header: 'phoneNumber', key: 'phoneNumber', width: 16 },
    { header: 'dateOfBirth', key: 'dateOfBirth', width: 12 },
    { header: 'roles', key: 'roles', width: 24 },
    { header: 'isActive', key: 'isActive', width: 9 },
    { header: 'emailConfirmed', key: 'emailConfirmed', width: 9 },
    { header: 'loginType', key: 'loginType', width: 10 },
    { header: 'userType', key: 'userType', width: 12 },
    { header: 'createdOn', key: 'createdOn', width: 22 },
  ];
  return streamWorkbook('Users', columns, async (add) => {
    let written = 0;
    for await (const batch of exportUsers(db, scopeOf(p), filters)) {
      for (const u of batch) {
        if (written >= MAX_EXPORT_ROWS) return;
        add({
          firstName: u.firstName,
          lastName: u.lastName,
          email: u.email,
          userName: u.userName,
          phoneNumber: u.phoneNumber,
          dateOfBirth: u.dateOfBirth,
          roles: u.roles.map((r) => r.roleName).join(', '),
          isActive: u.isActive,
          emailConfirmed: u.emailConfirmed,
          loginType: u.loginType,
          userType: u.userType,
          createdOn: formatAtOffset(u.createdOn, offsetMinutes),
        });
        written += 1;
      }
    }
  });
}
