import type { Queryable } from '#server/db/client.ts';
import { orderByClause, paged, pageWindow, searchKeyword, type Paged } from '#server/lib/paging.ts';
import type { Center, CenterSearchBody } from './seasons-schemas.ts';

/** Exam centers (EXAMS.md §2): tenant-wide, searched by keyword (code, name, city) and filters. */

interface CenterRow extends Omit<Center, 'updatedBy'> {
  updatedById: string | null;
  updatedByName: string | null;
}

const centerColumns = `c.id::int as "centerId", c.code, c.name, c.address, c.city, c.state, c.capacity, c.cbt_capable as "cbtCapable",
  c.contact_name as "contactName", c.contact_phone as "contactPhone", c.contact_email as "contactEmail", c.is_active as "isActive",
  c.version, c.created_at as "createdOn", c.updated_at as "updatedOn", c.updated_by as "updatedById",
  nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as "updatedByName"`;

const iso = (value: unknown) => new Date(value as string).toISOString();

export function toCenter(row: CenterRow): Center {
  const { updatedById, updatedByName, ...center } = row;
  return {
    ...center,
    createdOn: iso(row.createdOn),
    updatedOn: iso(row.updatedOn),
    updatedBy: updatedById ? { userId: updatedById, name: updatedByName ?? '' } : null,
  };
}

export function likePattern(keyword: string): string {
  return `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const centerOrder = {
  code: 'lower(c.code)',
  name: 'lower(c.name)',
  city: 'lower(c.city)',
  state: 'lower(c.state)',
  capacity: 'c.capacity',
  createdOn: 'c.created_at',
  updatedOn: 'c.updated_at',
};

export async function searchCenters(db: Queryable, tenantId: string, request: CenterSearchBody): Promise<Paged<Center>> {
  const window = pageWindow(request);
  const params: unknown[] = [tenantId];
  const where = ['c.tenant_id = $1'];
  const keyword = searchKeyword(request);
  if (keyword) {
    params.push(likePattern(keyword));
    where.push(`(lower(c.code) || ' ' || lower(c.name) || ' ' || lower(c.city)) like $${params.length}`);
  }
  if (request.city?.trim()) {
    params.push(request.city.trim().toLowerCase());
    where.push(`lower(c.city) = $${params.length}`);
  }
  if (request.state?.trim()) {
    params.push(request.state.trim().toLowerCase());
    where.push(`lower(c.state) = $${params.length}`);
  }
  if (typeof request.cbtCapable === 'boolean') {
    params.push(request.cbtCapable);
    where.push(`c.cbt_capable = $${params.length}`);
  }
  if (typeof request.isActive === 'boolean') {
    params.push(request.isActive);
    where.push(`c.is_active = $${params.length}`);
  }
  if (typeof request.minCapacity === 'number') {
    params.push(request.minCapacity);
    where.push(`c.capacity >= $${params.length}`);
  }
  const order = orderByClause(request.orderBy, centerOrder, 'lower(c.city), lower(c.name)', 'c.id');
  const whereSql = where.join(' and ');
  const [page, count] = await Promise.all([
    db.query<CenterRow>(
      `select ${centerColumns} from exam_centers c left join users u on u.id = c.updated_by where ${whereSql}
       order by ${order} limit ${window.limit} offset ${window.offset}`,
      params,
    ),
    db.query<{ n: number }>(`select count(*)::int as n from exam_centers c where ${whereSql}`, params),
  ]);
  return paged(page.rows.map(toCenter), count.rows[0].n, window);
}

export async function findCenter(db: Queryable, tenantId: string, centerId: number): Promise<Center | undefined> {
  const { rows } = await db.query<CenterRow>(
    `select ${centerColumns} from exam_centers c left join users u on u.id = c.updated_by where c.id = $1 and c.tenant_id = $2`,
    [centerId, tenantId],
  );
  return rows[0] ? toCenter(rows[0]) : undefined;
}

export interface NewCenter {
  code: string;
  name: string;
  address: string;
  city: string;
  state: string;
  capacity: number;
  cbtCapable: boolean;
  contactName: string;
  contactPhone: string;
  contactEmail: string;
  isActive: boolean;
}

/** Inserts centers in one statement; answers their ids in order. */
export async function insertCenters(db: Queryable, tenantId: string, userId: string, centers: NewCenter[]): Promise<number[]> {
  if (!centers.length) return [];
  const column = <K extends keyof NewCenter>(key: K) => centers.map((c) => c[key]);
  const { rows } = await db.query<{ id: number }>(
    `insert into exam_centers (tenant_id, code, name, address, city, state, capacity, cbt_capable, contact_name, contact_phone, contact_email,
                               is_active, created_by, updated_by)
     select $1, t.code, t.name, t.address, t.city, t.state, t.capacity, t.cbt, t.cn, t.cp, t.ce, t.active, $2, $2
     from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::boolean[], $10::text[], $11::text[], $12::text[], $13::boolean[])
          with ordinality as t(code, name, address, city, state, capacity, cbt, cn, cp, ce, active, n)
     order by t.n
     returning id::int as id`,
    [
      tenantId,
      userId,
      column('code'),
      column('name'),
      column('address'),
      column('city'),
      column('state'),
      column('capacity'),
      column('cbtCapable'),
      column('contactName'),
      column('contactPhone'),
      column('contactEmail'),
      column('isActive'),
    ],
  );
  return rows.map((r) => r.id);
}

export async function takenCenterCodes(db: Queryable, tenantId: string, codes: string[]): Promise<Set<string>> {
  if (!codes.length) return new Set();
  const { rows } = await db.query<{ code: string }>(`select lower(code) as code from exam_centers where tenant_id = $1 and lower(code) = any($2::text[])`, [
    tenantId,
    codes.map((c) => c.toLowerCase()),
  ]);
  return new Set(rows.map((r) => r.code));
}
