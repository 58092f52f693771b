import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import {
  exportCatalogue,
  formatCell,
  type ExportColumn,
  type ExportFileType,
  type ExportFilters,
  type ExportKind,
  type ExportFormat,
} from '#machines/results/export-catalogue.ts';
import type { Db, Queryable } from '#server/db/client.ts';
import { enqueueJob, JOB_LEASE_SECONDS, type Job } from '#server/lib/jobs.ts';
import { escapeCell, XLSX_MIME } from '#server/modules/users/users-xlsx.ts';
import { analysePaper } from './paper-statistics.ts';
import { loadPaperForScoring, scoredDeliverySource, type ResultRow, type ResultRowsSource } from './score-deliveries.ts';

/**
 * Export runs (issue 20, docs/decisions/0257): a template's rows written to .xlsx or .csv by a
 * background job of the jobs table (server/lib/jobs.ts, as the bulk user upload runs), with its
 * progress (rows written of the total) kept on the run for the screen to poll. CSV cells that
 * a spreadsheet would read as a formula are escaped (users-xlsx.ts `escapeCell`); .xlsx cells are
 * typed, never evaluated.
 */
export const EXPORT_RUN_JOB = 'exports.run';
export const MAX_EXPORT_ROWS = 200_000;
const BATCH = 500;

export interface ExportSpec {
  recordKind: ExportKind;
  fileType: ExportFileType;
  columns: ExportColumn[];
  filters: ExportFilters;
  language: string;
}

type Row = Record<string, unknown>;

export interface RowProducer {
  count(): Promise<number>;
  batches(): AsyncIterable<Row[]>;
}

/** The rows of a results export from any results source (today: scored deliveries). */
export function resultRows(rows: readonly ResultRow[]): Row[] {
  return rows.map((r) => ({
    rollNumber: r.rollNumber,
    candidateName: r.candidateName,
    centerName: r.centerName,
    paperCode: r.paperCode,
    paperTitle: r.paperTitle,
    setLetter: r.setLetter,
    score: r.score.total,
    maxScore: r.score.maxTotal,
    percentage: r.score.maxTotal > 0 ? r.score.total / r.score.maxTotal : null,
    correct: r.score.correct,
    wrong: r.score.wrong,
    omitted: r.score.omitted,
    awaitingMarking: r.score.awaitingMarking,
    deliveryStatus: r.status,
    submittedAt: r.submittedAt,
  }));
}

async function* keyset<T extends { id: number }>(db: Queryable, sql: string, params: unknown[]): AsyncIterable<T[]> {
  let after = 0;
  for (;;) {
    const { rows } = await db.query<T>(`${sql} and x.id > $${params.length + 1} order by x.id limit ${BATCH}`, [...params, after]);
    if (rows.length) yield rows;
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1].id;
  }
}

const registrationSql = `select * from (
  select r.id::int as id, r.roll_number as "rollNumber", trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) as "candidateName",
         u.email, e.code as "examCode", e.name as "examName", s.name as "seasonName", r.medium, r.preferred_city as "preferredCity",
         c.code as "centerCode", c.name as "centerName", r.seat_number as "seatNumber", r.status,
         (r.accommodations->>'extraTimePercent')::float8 as "extraTimePercent", r.created_at as "registeredAt",
         r.project_id, r.exam_id, r.season_id, r.center_id
  from registrations r join users u on u.id = r.candidate_id join exams e on e.id = r.exam_id join seasons s on s.id = r.season_id
  left join exam_centers c on c.id = r.center_id) x
  where x.project_id = $1 and ($2::bigint is null or x.exam_id = $2) and ($3::bigint is null or x.season_id = $3)
    and ($4::bigint is null or x.center_id = $4) and ($5::text is null or x.status = $5)`;

// One row per registration and scheduled paper it covers, with what the delivery (if any) says.
const attendanceSql = `select * from (
  select (r.id * 100000 + sp.id)::bigint as id, r.roll_number as "rollNumber",
         trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) as "candidateName",
         c.code as "centerCode", c.name as "centerName", c.city as "centerCity", p.code as "paperCode", sp.sits_on::text as "sitsOn",
         case when d.started_at is not null or r.status = 'Attended' then 'Present' when r.status = 'Absent' then 'Absent' else 'Not recorded' end as attendance,
         d.status as "deliveryStatus", d.started_at as "startedAt", d.ended_at as "endedAt",
         r.project_id, r.exam_id, r.season_id, r.center_id, sp.paper_id
  from registrations r join season_papers sp on sp.id = any(r.season_paper_ids) join papers p on p.id = sp.paper_id
  join users u on u.id = r.candidate_id left join exam_centers c on c.id = r.center_id
  left join deliveries d on d.registration_id = r.id and d.season_paper_id = sp.id
  where r.status in ('Allocated', 'AdmitCardIssued', 'Attended', 'Absent')) x
  where x.project_id = $1 and ($2::bigint is null or x.exam_id = $2) and ($3::bigint is null or x.season_id = $3)
    and ($4::bigint is null or x.center_id = $4) and ($5::bigint is null or x.paper_id = $5)`;

/** Where each kind's rows come from; `results` reads through a ResultRowsSource the lead can swap. */
export function rowProducer(db: Queryable, projectId: number, spec: ExportSpec, results: ResultRowsSource = scoredDeliverySource): RowProducer {
  const f = spec.filters;
  switch (spec.recordKind) {
    case 'registrations': {
      const params = [projectId, f.examId ?? null, f.seasonId ?? null, f.centerId ?? null, f.status ?? null];
      return {
        count: async () => (await db.query<{ n: number }>(`select count(*)::int as n from (${registrationSql}) q`, params)).rows[0].n,
        batches: () => keyset(db, registrationSql, params),
      };
    }
    case 'attendance': {
      const params = [projectId, f.examId ?? null, f.seasonId ?? null, f.centerId ?? null, f.paperId ?? null];
      return {
        count: async () => (await db.query<{ n: number }>(`select count(*)::int as n from (${attendanceSql}) q`, params)).rows[0].n,
        batches: () => keyset(db, attendanceSql, params),
      };
    }
    case 'results': {
      const filters = { examId: f.examId, paperId: f.paperId, centerId: f.centerId };
      return {
        count: () => results.count(db, projectId, filters),
        async *batches() {
          for await (const batch of results.batches(db, projectId, filters, BATCH)) yield resultRows(batch);
        },
      };
    }
    case 'itemStatistics': {
      let cached: Row[] | undefined;
      const load = async (): Promise<Row[]> => {
        if (cached) return cached;
        const paper = f.paperId ? await loadPaperForScoring(db, f.paperId) : undefined;
        if (!paper) return (cached = []);
        const scored = [];
        for await (const batch of results.batches(db, projectId, { paperId: paper.paperId, examId: f.examId }, BATCH))
          scored.push(...batch.map((r) => r.score));
        cached = analysePaper(paper, scored).items.map((item) => ({ ...item, answered: item.n, key: item.key.join(', '), flags: item.flags.join(', ') }));
        return cached;
      };
      return {
        count: async () => (await load()).length,
        async *batches() {
          yield await load();
        },
      };
    }
  }
}

// ---- writing the file ----------------------------------------------------------------------------

const numberFormats: Partial<Record<ExportFormat, string>> = { number: '0.##', percentage: '0.0%', date: 'yyyy-mm-dd hh:mm' };
const headerOf = (column: ExportColumn, language: string) => (column.headers as Record<string, string | undefined>)[language]?.trim() || column.headers.en;

export interface ExportWriter {
  add(row: Row): void;
  finish(): Promise<Buffer>;
}

function csvQuote(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A CSV cell: numbers as they are, percentages as "75.0%", dates as ISO time, text escaped against formulas. */
export function csvCell(value: unknown, format: ExportFormat): string {
  const cell = formatCell(value, format);
  if (cell === null) return '';
  if (cell instanceof Date) return cell.toISOString();
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell)) return '';
    return format === 'percentage' ? `${(cell * 100).toFixed(1)}%` : String(cell);
  }
  return csvQuote(escapeCell(cell));
}

export function csvWriter(spec: Pick<ExportSpec, 'columns' | 'language'>): ExportWriter {
  // The byte-order mark makes Excel read the file as UTF-8 (Hindi and Gujarati headers).
  const lines: string[] = ['\uFEFF' + spec.columns.map((c) => csvQuote(escapeCell(headerOf(c, spec.language)))).join(',')];
  return {
    add: (row) => void lines.push(spec.columns.map((c) => csvCell(row[c.field], c.format)).join(',')),
    finish: async () => Buffer.from(lines.join('\r\n') + '\r\n', 'utf8'),
  };
}

export function xlsxWriter(spec: Pick<ExportSpec, 'columns' | 'language'>, sheetName = 'Export'): ExportWriter {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    out.on('end', resolve);
    out.on('error', reject);
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = spec.columns.map((c, k) => {
    const header = headerOf(c, spec.language);
    return {
      header,
      key: `c${k}`,
      width: Math.min(40, Math.max(10, header.length + 2)),
      style: numberFormats[c.format] ? { numFmt: numberFormats[c.format] } : {},
    };
  });
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  return {
    add(row) {
      const values: Record<string, string | number | Date | null> = {};
      spec.columns.forEach((c, k) => {
        const cell = formatCell(row[c.field], c.format);
        values[`c${k}`] = typeof cell === 'number' && !Number.isFinite(cell) ? null : cell;
      });
      sheet.addRow(values).commit();
    },
    async finish() {
      sheet.commit();
      await workbook.commit();
      await ended;
      return Buffer.concat(chunks);
    },
  };
}

export const mimeOf = (fileType: ExportFileType) => (fileType === 'csv' ? 'text/csv; charset=utf-8' : XLSX_MIME);

export function fileNameOf(templateName: string, fileType: ExportFileType, at: Date): string {
  const base =
    templateName
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'export';
  return `${base}-${at.toISOString().slice(0, 10)}.${fileType}`;
}

/** Writes every row of a spec; `progress` is told how many are written (after each batch). */
export async function writeExport(
  producer: RowProducer,
  spec: ExportSpec,
  progress: (written: number) => Promise<void> = async () => undefined,
): Promise<{ content: Buffer; rows: number }> {
  const writer = spec.fileType === 'csv' ? csvWriter(spec) : xlsxWriter(spec);
  let written = 0;
  for await (const batch of producer.batches()) {
    for (const row of batch) {
      if (written >= MAX_EXPORT_ROWS) break;
      writer.add(row);
      written += 1;
    }
    await progress(written);
    if (written >= MAX_EXPORT_ROWS) break;
  }
  return { content: await writer.finish(), rows: written };
}

// ---- the job -------------------------------------------------------------------------------------

export async function queueExportRun(
  tx: Queryable,
  run: { tenantId: string; projectId: number; templateId: number; templateName: string; spec: ExportSpec; userId: string },
): Promise<string> {
  const { rows } = await tx.query<{ id: string }>(
    `insert into export_runs (tenant_id, project_id, template_id, template_name, spec, requested_by) values ($1, $2, $3, $4, $5, $6) returning id`,
    [run.tenantId, run.projectId, run.templateId, run.templateName, JSON.stringify(run.spec), run.userId],
  );
  const jobId = await enqueueJob(tx, EXPORT_RUN_JOB, { runId: rows[0].id }, { tenantId: run.tenantId, createdBy: run.userId });
  await tx.query(`update export_runs set job_id = $2 where id = $1`, [rows[0].id, jobId]);
  return rows[0].id;
}

/** The job: counts, writes in batches (progress after each), stores the file. A rerun (lease lost) starts over. */
export async function runExport(db: Db, job: Job<{ runId: string }>, results: ResultRowsSource = scoredDeliverySource): Promise<void> {
  const { rows } = await db.query<{ id: string; projectId: number; templateName: string; spec: ExportSpec; state: string }>(
    `select id, project_id::int as "projectId", template_name as "templateName", spec, state from export_runs where id = $1`,
    [job.payload.runId],
  );
  const run = rows[0];
  if (!run || run.state === 'finished') return;
  const producer = rowProducer(db, run.projectId, run.spec, results);
  try {
    const total = Math.min(await producer.count(), MAX_EXPORT_ROWS);
    await db.query(`update export_runs set state = 'running', total_rows = $2, rows_written = 0, message = null where id = $1`, [run.id, total]);
    const { content, rows: written } = await writeExport(producer, run.spec, async (n) => {
      await db.query(`update export_runs set rows_written = $2 where id = $1`, [run.id, n]);
      await db.query(`update jobs set locked_until = now() + make_interval(secs => $2) where id = $1`, [job.id, JOB_LEASE_SECONDS]);
    });
    const now = new Date();
    await db.query(
      `update export_runs set state = 'finished', rows_written = $2, total_rows = greatest(total_rows, $2), content = $3, file_name = $4, finished_at = $5, message = $6 where id = $1`,
      [run.id, written, content, fileNameOf(run.templateName, run.spec.fileType, now), now, `${written} rows written.`],
    );
  } catch (error) {
    await db.query(`update export_runs set state = 'failed', message = $2, finished_at = now() where id = $1`, [
      run.id,
      'The export could not be written; try again or contact an administrator.',
    ]);
    throw error;
  }
}

export const kindNeeds = (kind: ExportKind) => exportCatalogue[kind].needs;
