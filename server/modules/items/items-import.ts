import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import type { ImportJob } from '#machines/items/item-records.ts';
import type { ItemContent, MediaRef } from '#machines/items/item-schema.ts';
import type { Db, Queryable } from '#server/db/client.ts';
import { AppError, ValidationFailure } from '#server/lib/errors.ts';
import { cleanFileName, detectFileType } from '#server/lib/file-types.ts';
import { enqueueJob, type Job } from '#server/lib/jobs.ts';
import { exportQtiPackage, type ExportItem } from '#server/lib/items/qti-export.ts';
import { importQti } from '#server/lib/items/qti-import.ts';
import { QtiInputError } from '#server/lib/items/qti-xml.ts';
import type { Principal } from '#server/plugins/access.ts';
import { allowedCategoryFileKinds, MAX_CATEGORY_FILE_BYTES } from '#server/modules/exams/category-files-routes.ts';
import { checkUncompressedSize, readFirstSheet, SpreadsheetRefused } from '#server/modules/users/users-xlsx.ts';
import { plainText, prepareContent } from './item-content.ts';
import { insertItemsBatch, itemFlow, projectLanguages, type NewItem } from './items-repository.ts';
import { rowToItem, XLSX_COLUMNS } from './items-xlsx.ts';

/**
 * Item imports as jobs (docs/decisions/0124): a QTI 3.0 / 2.x item file or IMS content package,
 * or the .xlsx template. The file is kept with the job (every instance sees it); the job worker
 * of server/lib/jobs.ts runs it, as it runs the user bulk upload; counts and the problems of every
 * refused row or unmapped item are kept on the job and served as an error file.
 */
export const ITEM_IMPORT_JOB = 'items.import';
export const MAX_IMPORT_BYTES = 100 * 1024 * 1024;
const BATCH = 100;
const PROBLEM_CAP = 1000;

type Problem = ImportJob['problems'][number];

const isZip = (b: Buffer) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 3 && b[3] === 4;
const looksLikeXml = (b: Buffer) => /^(\uFEFF)?\s*</.test(b.subarray(0, 64).toString('utf8'));

export async function acceptImport(
  db: Db,
  p: Principal,
  projectId: number,
  file: { fileName: string | undefined; content: Buffer },
  categoryId: number,
  language: string,
): Promise<ImportJob> {
  const name = cleanFileName(file.fileName, 'items');
  if (file.content.length === 0) throw ValidationFailure.field('file', `${name} is empty.`);
  let format: 'qti' | 'xlsx';
  if (isZip(file.content) && detectFileType(file.content)?.kind === 'xlsx') {
    format = 'xlsx';
    try {
      checkUncompressedSize(file.content);
    } catch (error) {
      if (error instanceof SpreadsheetRefused) throw new AppError(400, error.message);
      throw error;
    }
  } else if (isZip(file.content) || looksLikeXml(file.content)) format = 'qti';
  else throw new AppError(415, `${name} is neither a QTI item (.xml), an IMS content package (.zip) nor the item template (.xlsx).`);
  const id = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `insert into item_imports (tenant_id, project_id, category_id, format, file_name, content, language, uploaded_by) values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
      [p.tenantId, projectId, categoryId, format, name, file.content, language, p.userId],
    );
    const jobId = await enqueueJob(tx, ITEM_IMPORT_JOB, { importId: rows[0].id }, { tenantId: p.tenantId, createdBy: p.userId });
    await tx.query(`update item_imports set job_id = $2 where id = $1`, [rows[0].id, jobId]);
    return rows[0].id;
  });
  return (await findImport(db, projectId, id))!;
}

const importColumns = `m.id as "jobId", m.format, m.file_name as "fileName", m.category_id::int as "categoryId", m.state, m.total, m.processed,
  m.created_count as created, m.failed_count as failed, m.files_created as "filesCreated", m.message, m.problems, m.created_item_ids::int[] as "createdItemIds",
  m.uploaded_by as "byId", nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as "byName", m.created_at as "createdOn", m.finished_at as "finishedOn"`;
type ImportRow = Omit<ImportJob, 'uploadedBy' | 'createdOn' | 'finishedOn'> & {
  byId: string | null;
  byName: string | null;
  createdOn: string | Date;
  finishedOn: string | Date | null;
};
const toImport = ({ byId, byName, createdOn, finishedOn, ...row }: ImportRow): ImportJob => ({
  ...row,
  uploadedBy: byId ? { userId: byId, name: byName ?? '' } : null,
  createdOn: new Date(createdOn).toISOString(),
  finishedOn: finishedOn ? new Date(finishedOn).toISOString() : null,
});

export async function findImport(db: Queryable, projectId: number, id: string): Promise<ImportJob | undefined> {
  const { rows } = await db.query<ImportRow>(
    `select ${importColumns} from item_imports m left join users u on u.id = m.uploaded_by where m.id = $1 and m.project_id = $2`,
    [id, projectId],
  );
  return rows[0] ? toImport(rows[0]) : undefined;
}

export async function listImports(db: Queryable, projectId: number): Promise<ImportJob[]> {
  const { rows } = await db.query<ImportRow>(
    `select ${importColumns} from item_imports m left join users u on u.id = m.uploaded_by where m.project_id = $1 order by m.created_at desc limit 50`,
    [projectId],
  );
  return rows.map(toImport);
}

// ---- the job ----------------------------------------------------------------------------------

interface ImportRecord {
  id: string;
  tenantId: string;
  projectId: number;
  categoryId: number;
  format: 'qti' | 'xlsx';
  fileName: string;
  content: Uint8Array | null;
  language: string;
  state: string;
  uploadedBy: string | null;
}

interface Candidate {
  source: { row: number | null; identifier: string | null; source: string | null };
  code: string | null;
  difficulty: string;
  cognitiveLevel: string | null;
  content: ItemContent;
}

const CODE = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

/** Runs one import job (idempotent: a finished import is left as it is). */
export async function itemImportJobHandler(job: Job<{ importId: string }>, db: Db): Promise<void> {
  const { rows } = await db.query<ImportRecord>(
    `select id, tenant_id as "tenantId", project_id::int as "projectId", category_id::int as "categoryId", format, file_name as "fileName", content, language, state, uploaded_by as "uploadedBy"
     from item_imports where id = $1`,
    [job.payload.importId],
  );
  const record = rows[0];
  if (!record || record.state === 'done' || record.state === 'failed' || !record.content) return;
  await db.query(`update item_imports set state = 'running' where id = $1`, [record.id]);
  try {
    await runImport(db, record);
  } catch (error) {
    if (error instanceof QtiInputError || error instanceof SpreadsheetRefused) {
      await db.query(`update item_imports set state = 'failed', message = $2, content = null, finished_at = now() where id = $1`, [record.id, error.message]);
      return;
    }
    throw error;
  }
}

async function runImport(db: Db, record: ImportRecord) {
  const problems: Problem[] = [];
  const candidates: Candidate[] = [];
  let filesCreated = 0;
  const buffer = Buffer.from(record.content!);
  if (record.format === 'qti') {
    const result = await importQti(buffer, { defaultLanguage: record.language, fileName: record.fileName });
    for (const unmapped of result.unmapped) problems.push({ row: null, identifier: unmapped.identifier, source: unmapped.source, reasons: unmapped.reasons });
    // Media: category files, checked by content like an upload (docs/decisions/0096).
    const stored = new Map<string, string>();
    const accepted: Array<{ key: string; name: string; mime: string; data: Buffer }> = [];
    for (const file of result.files) {
      const type = detectFileType(file.data);
      if (!type || !allowedCategoryFileKinds.includes(type.kind) || type.kind === 'text') {
        problems.push({
          row: null,
          identifier: file.usedBy.join(', '),
          source: file.path,
          reasons: [`${file.fileName} was not stored: its content is not an allowed media type (images, audio, PDF).`],
        });
        continue;
      }
      if (file.data.length > MAX_CATEGORY_FILE_BYTES) {
        problems.push({
          row: null,
          identifier: file.usedBy.join(', '),
          source: file.path,
          reasons: [`${file.fileName} was not stored: files are at most 10 MB.`],
        });
        continue;
      }
      accepted.push({ key: file.key, name: cleanFileName(file.fileName, 'media'), mime: type.mime, data: file.data });
    }
    // Many files per statement (up to ~8 MB of bytes), in the package's order.
    for (let start = 0; start < accepted.length;) {
      const batch: typeof accepted = [];
      let bytes = 0;
      while (start < accepted.length && (batch.length === 0 || (batch.length < 200 && bytes + accepted[start].data.length <= 8 * 1024 * 1024))) {
        bytes += accepted[start].data.length;
        batch.push(accepted[start]);
        start += 1;
      }
      const ids = batch.map(() => randomUUID());
      await db.query(
        `insert into category_files (id, tenant_id, project_id, category_id, file_name, content_type, size_bytes, content, uploaded_by)
         select f.id, $1, $2, $3, f.name, f.mime, length(f.data), f.data, $4 from unnest($5::uuid[], $6::text[], $7::text[], $8::bytea[]) as f(id, name, mime, data)`,
        [
          record.tenantId,
          record.projectId,
          record.categoryId,
          record.uploadedBy,
          ids,
          batch.map((f) => f.name),
          batch.map((f) => f.mime),
          batch.map((f) => f.data),
        ],
      );
      batch.forEach((file, i) => stored.set(file.key, ids[i]));
      filesCreated += batch.length;
    }
    for (const item of result.items) {
      const media: MediaRef[] = item.content.media.map((ref) => ({ ...ref, categoryFileId: stored.get(ref.key) ?? ref.categoryFileId }));
      candidates.push({
        source: { row: null, identifier: item.identifier, source: item.sources.join(', ') },
        code: item.identifier,
        difficulty: 'medium',
        cognitiveLevel: null,
        content: { ...item.content, media } as ItemContent,
      });
    }
  } else {
    const languages = await projectLanguages(db, record.projectId);
    const sheet = await readFirstSheet(buffer);
    const header = sheet.header.map((h) => h.trim().toLowerCase());
    if (!header.includes('kind')) throw new SpreadsheetRefused('The header row lacks the column "kind". Start from the template (GET /api/v1/item/template).');
    for (const row of sheet.rows) {
      const cells: Record<string, string> = {};
      header.forEach((title, index) => {
        if ((XLSX_COLUMNS as readonly string[]).includes(title) || /^(stem|options)_[a-z]{2,3}$/.test(title))
          cells[title] = (row.cells[index] ?? '').slice(0, 20_000);
      });
      if (Object.values(cells).every((v) => !v.trim())) continue;
      const parsed = rowToItem(cells, languages);
      if ('reasons' in parsed) {
        problems.push({ row: row.rowNumber, identifier: cells.code || null, source: null, reasons: parsed.reasons });
        continue;
      }
      candidates.push({ source: { row: row.rowNumber, identifier: cells.code || null, source: null }, ...parsed });
    }
  }
  const total = candidates.length + problems.filter((p) => !p.reasons[0]?.includes('was not stored')).length;
  await db.query(`update item_imports set total = $2, files_created = $3 where id = $1`, [record.id, total, filesCreated]);
  await storeCandidates(db, record, candidates, problems, total);
}

async function storeCandidates(db: Db, record: ImportRecord, candidates: Candidate[], problems: Problem[], total: number) {
  const languages = await projectLanguages(db, record.projectId);
  const flow = await itemFlow(db, record.projectId, null);
  const { rows: taken } = await db.query<{ code: string }>(`select lower(code) as code from items where project_id = $1`, [record.projectId]);
  const codes = new Set(taken.map((r) => r.code));
  const createdIds: number[] = [];
  let processed = problems.length;
  const actor = { tenantId: record.tenantId, projectId: record.projectId, userId: record.uploadedBy! };
  for (let start = 0; start < candidates.length; start += BATCH) {
    const batch = candidates.slice(start, start + BATCH);
    await db.transaction(async (tx) => {
      const ready: NewItem[] = [];
      for (const candidate of batch) {
        let content: ItemContent;
        try {
          content = prepareContent(candidate.content);
        } catch (error) {
          if (!(error instanceof ValidationFailure)) throw error;
          problems.push({ ...candidate.source, reasons: Object.entries(error.errors).map(([field, messages]) => `${field}: ${messages.join(' ')}`) });
          continue;
        }
        let code: string | null = candidate.code && CODE.test(candidate.code) ? candidate.code : null;
        if (code) {
          const base = code.slice(0, 58);
          for (let n = 2; codes.has(code!.toLowerCase()); n += 1) code = `${base}-${n}`;
          codes.add(code.toLowerCase());
        }
        ready.push({
          code,
          categoryId: record.categoryId,
          difficulty: candidate.difficulty,
          cognitiveLevel: candidate.cognitiveLevel,
          content,
          flowId: flow?.flowId ?? null,
        });
      }
      const ids = await insertItemsBatch(tx, actor, ready, languages);
      for (const id of ids) codes.add(`itm-${String(id).padStart(6, '0')}`);
      createdIds.push(...ids);
    });
    processed += batch.length;
    await db.query(`update item_imports set processed = $2, created_count = $3 where id = $1`, [record.id, processed, createdIds.length]);
  }
  await db.query(
    `update item_imports set state = 'done', total = $2, processed = $2, created_count = $3, failed_count = $4, problems = $5, created_item_ids = $6, content = null, finished_at = now() where id = $1`,
    [
      record.id,
      Math.max(total, createdIds.length + problems.length),
      createdIds.length,
      problems.length,
      JSON.stringify(problems.slice(0, PROBLEM_CAP)),
      createdIds.slice(0, PROBLEM_CAP),
    ],
  );
}

/** The refused rows / unmapped items of an import as .xlsx. */
export async function importErrorFile(job: ImportJob): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Exam Portal';
  const sheet = workbook.addWorksheet('Problems');
  sheet.columns = [
    { header: 'row', key: 'row', width: 8 },
    { header: 'identifier', key: 'identifier', width: 24 },
    { header: 'source', key: 'source', width: 40 },
    { header: 'reasons', key: 'reasons', width: 100 },
  ];
  sheet.getRow(1).font = { bold: true };
  for (const problem of job.problems) {
    sheet.addRow({ row: problem.row ?? '', identifier: problem.identifier ?? '', source: problem.source ?? '', reasons: problem.reasons.join('\n') });
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

// ---- export -----------------------------------------------------------------------------------

/** QTI 3.0 package of items (latest versions), media from their category files. */
export async function exportItems(db: Queryable, projectId: number, itemIds: number[]): Promise<Buffer> {
  const { rows } = await db.query<{ id: number; code: string; content: ItemContent }>(
    `select i.id::int as id, i.code, v.content from items i join item_versions v on v.id = i.latest_version_id
     where i.project_id = $1 and i.id = any($2::bigint[]) order by i.code, i.id`,
    [projectId, itemIds],
  );
  const items: ExportItem[] = rows.map((row) => ({ id: row.code, title: exportTitle(row.content, row.code), content: row.content }));
  return exportQtiPackage(items, async (ref) => {
    if (!ref.categoryFileId || !/^[0-9a-f-]{36}$/i.test(ref.categoryFileId)) return null;
    const { rows: files } = await db.query<{ content: Uint8Array }>(`select content from category_files where id = $1 and project_id = $2`, [
      ref.categoryFileId,
      projectId,
    ]);
    return files[0] ? Buffer.from(files[0].content) : null;
  });
}

function exportTitle(content: ItemContent, code: string): string {
  const first = Object.keys(content.variants).sort()[0];
  const text = first ? plainText(content.variants[first].stem) : '';
  return text ? text.slice(0, 80) : code;
}
