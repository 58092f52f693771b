import type { SeasonStatus } from '#machines/exams/season.machine.ts';
import type { Queryable } from '#server/db/client.ts';
import { orderByClause, paged, pageWindow, searchKeyword } from '#server/lib/paging.ts';
import { likePattern } from './centers-repository.ts';
import type { SeasonCenter, SeasonPaper } from './seasons-schemas.ts';

export interface SeasonRow {
  seasonId: number;
  projectId: number;
  code: string;
  name: string;
  startsOn: string;
  endsOn: string;
  registrationOpensAt: string;
  registrationClosesAt: string;
  rollPattern: string;
  status: SeasonStatus;
  paperCount: number;
  centerCount: number;
  seats: number;
  allocated: number;
  version: number;
  createdOn: string;
  updatedOn: string;
  updatedById: string | null;
  updatedByName: string | null;
}

const seasonColumns = `s.id::int as "seasonId", s.project_id::int as "projectId", s.code, s.name, to_char(s.starts_on, 'YYYY-MM-DD') as "startsOn",
  to_char(s.ends_on, 'YYYY-MM-DD') as "endsOn", s.registration_opens_at as "registrationOpensAt", s.registration_closes_at as "registrationClosesAt",
  s.roll_pattern as "rollPattern", s.status,
  (select count(*)::int from season_papers sp where sp.season_id = s.id) as "paperCount",
  (select count(*)::int from season_centers sc where sc.season_id = s.id) as "centerCount",
  (select coalesce(sum(sc.seats), 0)::int from season_centers sc where sc.season_id = s.id) as seats,
  (select coalesce(sum(sc.allocated), 0)::int from season_centers sc where sc.season_id = s.id) as allocated,
  s.version, s.created_at as "createdOn", s.updated_at as "updatedOn", s.updated_by as "updatedById",
  nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as "updatedByName"`;

const iso = (value: unknown) => new Date(value as string).toISOString();
const normalise = (row: SeasonRow): SeasonRow => ({
  ...row,
  registrationOpensAt: iso(row.registrationOpensAt),
  registrationClosesAt: iso(row.registrationClosesAt),
  createdOn: iso(row.createdOn),
  updatedOn: iso(row.updatedOn),
});

export async function findSeason(db: Queryable, projectId: number, seasonId: number, options: { forUpdate?: boolean } = {}): Promise<SeasonRow | undefined> {
  if (options.forUpdate) await db.query(`select id from seasons where id = $1 and project_id = $2 for update`, [seasonId, projectId]);
  const { rows } = await db.query<SeasonRow>(
    `select ${seasonColumns} from seasons s left join users u on u.id = s.updated_by where s.id = $1 and s.project_id = $2`,
    [seasonId, projectId],
  );
  return rows[0] ? normalise(rows[0]) : undefined;
}

const seasonOrder = { code: 'lower(s.code)', name: 'lower(s.name)', startsOn: 's.starts_on', status: 's.status', createdOn: 's.created_at' };

export async function searchSeasons(
  db: Queryable,
  projectId: number,
  request: {
    keyword?: string | null;
    advancedSearch?: { keyword?: string | null } | null;
    status?: string | null;
    pageNumber?: number;
    pageSize?: number;
    orderBy?: string[] | null;
  },
) {
  const window = pageWindow(request);
  const params: unknown[] = [projectId];
  const where = ['s.project_id = $1'];
  const keyword = searchKeyword(request);
  if (keyword) {
    params.push(likePattern(keyword));
    where.push(`(lower(s.code) || ' ' || lower(s.name)) like $${params.length}`);
  }
  if (request.status) {
    params.push(request.status);
    where.push(`s.status = $${params.length}`);
  }
  const order = orderByClause(request.orderBy, seasonOrder, 's.starts_on desc', 's.id desc');
  const whereSql = where.join(' and ');
  const [page, count] = await Promise.all([
    db.query<SeasonRow>(
      `select ${seasonColumns} from seasons s left join users u on u.id = s.updated_by where ${whereSql} order by ${order} limit ${window.limit} offset ${window.offset}`,
      params,
    ),
    db.query<{ n: number }>(`select count(*)::int as n from seasons s where ${whereSql}`, params),
  ]);
  return paged(page.rows.map(normalise), count.rows[0].n, window);
}

const hhmm = (minute: number) => `${String(Math.floor(minute / 60) % 24).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
export const minuteOf = (hhmmText: string) => Number(hhmmText.slice(0, 2)) * 60 + Number(hhmmText.slice(3, 5));

interface SeasonPaperRow {
  seasonPaperId: number;
  seasonId: number;
  paperId: number;
  paperCode: string;
  paperTitle: string;
  paperStatus: string;
  examId: number;
  examName: string;
  examCode: string;
  sitsOn: string;
  startsAtMinute: number;
  durationMinutes: number;
  mode: 'online' | 'offline';
  setAssignment: 'randomPerCandidate' | 'perCenter';
  candidateGroup: string | null;
  liveSets: string[] | null;
  availableSets: string[] | null;
  sections: SeasonPaper['sections'] | null;
  version: number;
}

export async function listSeasonPapers(db: Queryable, seasonId: number, seasonPaperId: number | null = null): Promise<SeasonPaper[]> {
  const { rows } = await db.query<SeasonPaperRow>(
    `select sp.id::int as "seasonPaperId", sp.season_id::int as "seasonId", sp.paper_id::int as "paperId", p.code as "paperCode", p.title as "paperTitle",
            p.status as "paperStatus", sp.exam_id::int as "examId", e.name as "examName", e.code as "examCode",
            to_char(sp.sits_on, 'YYYY-MM-DD') as "sitsOn", sp.starts_at_minute as "startsAtMinute", sp.duration_minutes as "durationMinutes",
            sp.mode, sp.set_assignment as "setAssignment", sp.candidate_group as "candidateGroup", sp.version,
            (select array_agg(ss.letter order by ss.letter) from season_sets ss where ss.season_paper_id = sp.id) as "liveSets",
            (select array_agg(ps.letter order by ps.letter) from paper_sets ps where ps.paper_id = sp.paper_id) as "availableSets",
            (select json_agg(json_build_object('sectionId', s.id::int, 'title', s.title, 'position', s.position,
                      'paperTimeLimitMinutes', s.time_limit_minutes, 'timeLimitMinutes', x.time_limit_minutes, 'note', coalesce(x.note, ''))
                    order by s.position, s.id)
               from paper_sections s left join season_sections x on x.section_id = s.id and x.season_paper_id = sp.id
              where s.paper_id = sp.paper_id) as sections
     from season_papers sp join papers p on p.id = sp.paper_id join exams e on e.id = sp.exam_id
     where sp.season_id = $1 and ($2::bigint is null or sp.id = $2)
     order by sp.sits_on, sp.starts_at_minute, sp.id`,
    [seasonId, seasonPaperId],
  );
  return rows.map((r) => ({
    seasonPaperId: r.seasonPaperId,
    seasonId: r.seasonId,
    paperId: r.paperId,
    paperCode: r.paperCode,
    paperTitle: r.paperTitle,
    paperStatus: r.paperStatus,
    examId: r.examId,
    examName: r.examName,
    sitsOn: r.sitsOn,
    startsAt: hhmm(r.startsAtMinute),
    endsAt: hhmm(r.startsAtMinute + r.durationMinutes),
    durationMinutes: r.durationMinutes,
    mode: r.mode,
    setAssignment: r.setAssignment,
    candidateGroup: r.candidateGroup ?? r.examCode,
    liveSets: r.liveSets ?? [],
    availableSets: r.availableSets ?? [],
    sections: r.sections ?? [],
    version: r.version,
  }));
}

export interface Clash {
  candidateGroup: string;
  sitsOn: string;
  seasonPaperIds: number[];
  message: string;
}

/**
 * The schedule's warnings (issue 18): two papers of one candidate group whose times overlap.
 * Times are minutes from the sitting day's midnight, so a paper running past midnight overlaps
 * the next day's early papers too.
 */
export function scheduleClashes(
  papers: ReadonlyArray<Pick<SeasonPaper, 'seasonPaperId' | 'candidateGroup' | 'sitsOn' | 'startsAt' | 'durationMinutes' | 'paperCode'>>,
): Clash[] {
  const span = (p: (typeof papers)[number]) => {
    const start = Date.parse(`${p.sitsOn}T00:00:00Z`) / 60_000 + minuteOf(p.startsAt);
    return [start, start + p.durationMinutes] as const;
  };
  const clashes: Clash[] = [];
  for (let i = 0; i < papers.length; i += 1) {
    for (let j = i + 1; j < papers.length; j += 1) {
      const a = papers[i];
      const b = papers[j];
      if (a.candidateGroup.toLowerCase() !== b.candidateGroup.toLowerCase()) continue;
      const [aStart, aEnd] = span(a);
      const [bStart, bEnd] = span(b);
      if (aStart < bEnd && bStart < aEnd) {
        clashes.push({
          candidateGroup: a.candidateGroup,
          sitsOn: a.sitsOn,
          seasonPaperIds: [a.seasonPaperId, b.seasonPaperId],
          message: `Candidates of ${a.candidateGroup} would sit ${a.paperCode} (${a.sitsOn} ${a.startsAt}) and ${b.paperCode} (${b.sitsOn} ${b.startsAt}) at the same time.`,
        });
      }
    }
  }
  return clashes;
}

export async function listSeasonCenters(db: Queryable, seasonId: number, centerId: number | null = null): Promise<SeasonCenter[]> {
  const { rows } = await db.query<SeasonCenter>(
    `select sc.season_id::int as "seasonId", c.id::int as "centerId", c.code, c.name, c.city, c.state, c.address, c.capacity,
            c.cbt_capable as "cbtCapable", c.is_active as "isActive", sc.seats, sc.allocated, sc.version
     from season_centers sc join exam_centers c on c.id = sc.center_id
     where sc.season_id = $1 and ($2::bigint is null or c.id = $2)
     order by lower(c.city), lower(c.name), c.id`,
    [seasonId, centerId],
  );
  return rows;
}

export async function seasonHistory(db: Queryable, seasonId: number) {
  const { rows } = await db.query<{
    event: string;
    fromStatus: string | null;
    toStatus: string | null;
    actorId: string | null;
    actorName: string | null;
    reason: string | null;
    at: string;
  }>(
    `select h.event, h.from_status as "fromStatus", h.to_status as "toStatus", h.actor_id as "actorId",
            nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as "actorName", h.reason, h.created_at as at
     from season_history h left join users u on u.id = h.actor_id where h.season_id = $1 order by h.id`,
    [seasonId],
  );
  return rows.map((r) => ({
    event: r.event,
    fromStatus: r.fromStatus,
    toStatus: r.toStatus,
    by: r.actorId ? { userId: r.actorId, name: r.actorName ?? '' } : null,
    reason: r.reason,
    at: iso(r.at),
  }));
}
