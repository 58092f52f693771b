import type { ExportColumn, ExportFormat, ExportTemplateDraft } from '#machines/results/export-catalogue.ts';
import type { Queryable } from '#server/db/client.ts';

/**
 * The export templates every project template carries and every demo project has (issue 20):
 * "Result sheet", "Attendance by center" and "Item analysis". Headers in English, Hindi and
 * Gujarati, the board languages of the seeded project templates.
 */
const col = (field: string, en: string, hi: string, gu: string, format: ExportFormat = 'text'): ExportColumn => ({ field, headers: { en, hi, gu }, format });

export const seededExportTemplates: ExportTemplateDraft[] = [
  {
    name: 'Result sheet',
    recordKind: 'results',
    fileType: 'xlsx',
    filters: {},
    columns: [
      col('rollNumber', 'Roll number', 'अनुक्रमांक', 'રોલ નંબર'),
      col('candidateName', 'Candidate', 'परीक्षार्थी', 'ઉમેદવાર'),
      col('centerName', 'Centre', 'केंद्र', 'કેન્દ્ર'),
      col('paperCode', 'Paper', 'प्रश्नपत्र', 'પ્રશ્નપત્ર'),
      col('setLetter', 'Set', 'सेट', 'સેટ'),
      col('score', 'Marks', 'अंक', 'ગુણ', 'number'),
      col('maxScore', 'Out of', 'पूर्णांक', 'કુલ ગુણ', 'number'),
      col('percentage', 'Percentage', 'प्रतिशत', 'ટકાવારી', 'percentage'),
      col('correct', 'Correct', 'सही', 'સાચા', 'number'),
      col('wrong', 'Wrong', 'गलत', 'ખોટા', 'number'),
      col('omitted', 'Not answered', 'अनुत्तरित', 'અનુત્તરિત', 'number'),
      col('awaitingMarking', 'To be marked', 'जाँच शेष', 'તપાસ બાકી', 'number'),
      col('submittedAt', 'Submitted', 'जमा किया', 'જમા કર્યું', 'date'),
    ],
  },
  {
    name: 'Attendance by center',
    recordKind: 'attendance',
    fileType: 'xlsx',
    filters: {},
    columns: [
      col('centerCode', 'Centre code', 'केंद्र कोड', 'કેન્દ્ર કોડ'),
      col('centerName', 'Centre', 'केंद्र', 'કેન્દ્ર'),
      col('centerCity', 'City', 'शहर', 'શહેર'),
      col('paperCode', 'Paper', 'प्रश्नपत्र', 'પ્રશ્નપત્ર'),
      col('sitsOn', 'Date', 'दिनांक', 'તારીખ', 'date'),
      col('rollNumber', 'Roll number', 'अनुक्रमांक', 'રોલ નંબર'),
      col('candidateName', 'Candidate', 'परीक्षार्थी', 'ઉમેદવાર'),
      col('attendance', 'Attendance', 'उपस्थिति', 'હાજરી'),
      col('startedAt', 'Started', 'आरंभ', 'શરૂ', 'date'),
    ],
  },
  {
    name: 'Item analysis',
    recordKind: 'itemStatistics',
    fileType: 'xlsx',
    filters: {},
    columns: [
      col('number', 'Question', 'प्रश्न', 'પ્રશ્ન', 'number'),
      col('kind', 'Type', 'प्रकार', 'પ્રકાર'),
      col('key', 'Key', 'उत्तर कुंजी', 'જવાબ ચાવી'),
      col('answered', 'Candidates', 'परीक्षार्थी', 'ઉમેદવારો', 'number'),
      col('facility', 'Facility', 'सुगमता', 'સરળતા', 'percentage'),
      col('pointBiserial', 'Point-biserial', 'पॉइंट-बाइसीरियल', 'પોઇન્ટ-બાયસીરિયલ', 'number'),
      col('upperLowerIndex', 'Upper − lower 27 %', 'ऊपरी − निचला 27 %', 'ઉપલા − નીચલા 27 %', 'number'),
      col('omittedRate', 'Omitted', 'छोड़ा गया', 'છોડેલ', 'percentage'),
      col('flags', 'Flags', 'चेतावनी', 'ચેતવણી'),
    ],
  },
];

/** Adds the seeded templates a project does not have yet (by name); returns how many it added. */
export async function addExportTemplates(
  tx: Queryable,
  tenantId: string,
  projectId: number,
  templates: readonly ExportTemplateDraft[] = seededExportTemplates,
  userId: string | null = null,
): Promise<number> {
  let added = 0;
  for (const t of templates) {
    const { rowCount } = await tx.query(
      `insert into export_templates (tenant_id, project_id, name, record_kind, file_type, columns, filters, created_by, updated_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $8) on conflict (project_id, lower(name)) do nothing`,
      [tenantId, projectId, t.name, t.recordKind, t.fileType, JSON.stringify(t.columns), JSON.stringify(t.filters), userId],
    );
    added += rowCount ?? 0;
  }
  return added;
}
