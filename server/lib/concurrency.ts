import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '#server/db/client.ts';
import { conflict, ValidationFailure } from './errors.ts';

/**
 * Optimistic concurrency for editable records (docs/decisions/0094): every record carries a
 * `version`; an edit names the version it was made on, in the body (`version`) or as
 * `If-Match: "<version>"` (the ETag the record's GET answers). The update is conditional on
 * it; over a newer version the caller gets a 409 naming who changed the record and when.
 */
const ifMatchPattern = /^(?:W\/)?"?([1-9][0-9]{0,9})"?$/;

export function expectedVersion(request: FastifyRequest, bodyVersion: number | undefined | null): number {
  if (typeof bodyVersion === 'number') return bodyVersion;
  const header = request.headers['if-match'];
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (value) {
    const match = ifMatchPattern.exec(value);
    if (!match) throw ValidationFailure.field('If-Match', 'If-Match must be the version the edit was made on, e.g. "3".');
    return Number(match[1]);
  }
  throw ValidationFailure.field('version', 'The version field is required (or send If-Match with the version you edited).');
}

/** Sets the record's ETag so a client can send it back as If-Match. */
export function setVersionTag(reply: FastifyReply, version: number): void {
  reply.header('etag', `"${version}"`);
}

export interface ChangeStamp {
  version: number;
  updatedBy: string | null;
  updatedByName: string | null;
  updatedAt: string;
}

/** Who last changed a row of `table` (id, version, updated_by, updated_at). */
export async function changeStamp(db: Queryable, table: string, id: number | string): Promise<ChangeStamp | undefined> {
  const { rows } = await db.query<ChangeStamp>(
    `select r.version, r.updated_by as "updatedBy", r.updated_at as "updatedAt",
            nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as "updatedByName"
     from ${table} r left join users u on u.id = r.updated_by where r.id = $1`,
    [id],
  );
  const row = rows[0];
  return row ? { ...row, updatedAt: new Date(row.updatedAt).toISOString() } : undefined;
}

/** The 409 of an edit made on an older version. */
export function staleEdit(what: string, stamp: ChangeStamp, sentVersion: number) {
  const who = stamp.updatedByName ?? 'someone else';
  return conflict(
    `This ${what} was changed by ${who} at ${stamp.updatedAt} (version ${stamp.version}; your edit was made on version ${sentVersion}). Reload it and apply your edit again.`,
    { currentVersion: stamp.version, changedBy: stamp.updatedBy ? { userId: stamp.updatedBy, name: who } : null, changedAt: stamp.updatedAt },
  );
}
