import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { P, type Permission } from '#machines/permissions.ts';
import type { Queryable } from '#server/db/client.ts';
import { conflict, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { orderByClause, paged, pageWindow, searchKeyword } from '#server/lib/paging.ts';
import { requirePrincipal, type Principal } from '#server/plugins/access.ts';
import { likePattern, scopeSql } from './users-repository.ts';
import * as S from './users-schemas.ts';
import { loadInScope, scopeOf, usersMessages, type UsersDeps } from './users-service.ts';

const security = [{ bearer: [] }];
export const MAX_LANGUAGES_PER_USER = 20;

/**
 * Whose data a call may touch: oneself always; another user only with `permission` and
 * within the caller's tenant and scope. Anything else is the same 404 as a user that does
 * not exist (SECURITY.md: no 403 that leaks existence).
 */
async function targetUser(deps: UsersDeps, p: Principal, userId: string | null | undefined, permission: Permission): Promise<string> {
  if (!userId || userId.toLowerCase() === p.userId) return p.userId;
  if (!p.permissions.has(permission)) throw notFound(usersMessages.userNotFound);
  return (await loadInScope(deps, p, userId)).id;
}

interface HistoryRow {
  id: string;
  userId: string | null;
  email: string;
  userName: string | null;
  time: Date;
  event: string;
  reason: string | null;
  ipAddress: string | null;
  userAgent: string | null;
}

async function searchLoginHistory(
  db: Queryable,
  reach: { kind: 'user'; tenantId: string; userId: string } | { kind: 'scope'; scope: ReturnType<typeof scopeOf> },
  body: S.LoginHistorySearchBody,
) {
  const window = pageWindow(body);
  const params: unknown[] = [];
  const parts: string[] = [];
  if (reach.kind === 'user') {
    params.push(reach.tenantId, reach.userId);
    parts.push('h.tenant_id = $1 and h.user_id = $2');
  } else if (reach.scope.instituteId || reach.scope.resellerId) {
    // A scoped administrator sees the rows of users in their scope only.
    const scope = scopeSql(reach.scope, 1);
    params.push(...scope.params);
    parts.push(`h.tenant_id = $1 and ${scope.sql}`);
  } else {
    params.push(reach.scope.tenantId);
    parts.push('h.tenant_id = $1');
  }
  if (body.userId && reach.kind === 'scope') {
    params.push(body.userId);
    parts.push(`h.user_id = $${params.length}`);
  }
  if (body.event) {
    params.push(body.event);
    parts.push(`h.event = $${params.length}`);
  }
  const keyword = searchKeyword(body);
  if (keyword) {
    params.push(likePattern(keyword));
    parts.push(`(lower(h.email) like $${params.length} or lower(coalesce(h.ip, '')) like $${params.length})`);
  }
  const where = parts.join(' and ');
  const order = orderByClause(body.orderBy, { time: 'h.occurred_at', email: 'lower(h.email)', event: 'h.event' }, 'h.occurred_at desc', 'h.id desc');
  const from = `from login_history h left join users u on u.id = h.user_id`;
  const [page, count] = await Promise.all([
    db.query<HistoryRow>(
      `select h.id, h.user_id as "userId", h.email, u.user_name as "userName", h.occurred_at as time, h.event, h.reason,
              h.ip as "ipAddress", h.user_agent as "userAgent"
       ${from} where ${where} order by ${order} limit ${window.limit} offset ${window.offset}`,
      params,
    ),
    db.query<{ n: number }>(`select count(*)::int as n ${from} where ${where}`, params),
  ]);
  const rows = page.rows.map((r) => ({
    ...r,
    time: new Date(r.time).toISOString(),
    outcome: r.event === 'loginFailed' ? 'failure' : 'success',
  }));
  return paged(rows, count.rows[0].n, window);
}

/** Spec §7 "Login history" and "User languages", under /api. */
export async function userActivityRoutes(fastify: FastifyInstance, deps: UsersDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const db = deps.identity.db;
  const tags = ['login history'];

  app.post(
    '/v1/userloginhistory/search',
    {
      config: { access: P.LoginHistory.View },
      schema: {
        tags,
        security,
        summary: 'Sign-ins, failures, sign-outs and ended sessions of every user in your scope',
        body: S.LoginHistorySearchBody,
        response: { 200: S.LoginHistoryPage },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      if (request.body.userId) await loadInScope(deps, p, request.body.userId);
      return searchLoginHistory(db, { kind: 'scope', scope: scopeOf(p) }, request.body);
    },
  );

  app.post(
    '/v1/userloginhistory',
    {
      config: { access: 'authenticated' },
      schema: { tags, security, summary: 'Your own login history', body: S.LoginHistorySearchBody, response: { 200: S.LoginHistoryPage } },
    },
    async (request) => {
      const p = requirePrincipal(request);
      if (request.body.userId && request.body.userId.toLowerCase() !== p.userId) throw notFound(usersMessages.userNotFound);
      return searchLoginHistory(db, { kind: 'user', tenantId: p.tenantId, userId: p.userId }, request.body);
    },
  );

  app.post(
    '/v1/userloginhistory/searchbyuserid',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        security,
        summary: "One user's login history: your own, or a user in your scope with Permissions.LoginHistory.View",
        body: S.LoginHistorySearchBody,
        response: { 200: S.LoginHistoryPage },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const userId = await targetUser(deps, p, request.body.userId, P.LoginHistory.View);
      return searchLoginHistory(db, { kind: 'user', tenantId: p.tenantId, userId }, request.body);
    },
  );

  // ---- user languages ------------------------------------------------------------------------

  const languageTags = ['user languages'];
  const toLanguage = (r: { id: string; userId: string; languageCode: string; createdOn: Date }) => ({
    ...r,
    createdOn: new Date(r.createdOn).toISOString(),
  });
  const languageColumns = `id, user_id as "userId", language_code as "languageCode", created_at as "createdOn"`;

  app.post(
    '/v1/userlanguage',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: languageTags,
        security,
        summary: `Add a language to your profile (or, with Permissions.Users.Update, to a user in your scope); at most ${MAX_LANGUAGES_PER_USER}`,
        body: S.UserLanguageBody,
        response: { 201: S.UserLanguage },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const userId = await targetUser(deps, p, request.body.userId, P.Users.Update);
      const code = canonicalLanguage(request.body.languageCode);
      const row = await db.transaction(async (tx) => {
        // Serialises additions for one user so the cap holds under concurrent calls.
        await tx.query(`select 1 from users where id = $1 for update`, [userId]);
        const { rows: existing } = await tx.query<{ languageCode: string }>(`select language_code as "languageCode" from user_languages where user_id = $1`, [
          userId,
        ]);
        if (existing.some((e) => e.languageCode.toLowerCase() === code.toLowerCase())) {
          throw conflict(`${code} is already one of the user's languages.`, { reason: 'duplicateLanguage' });
        }
        if (existing.length >= MAX_LANGUAGES_PER_USER) {
          throw ValidationFailure.field('languageCode', `A user can list at most ${MAX_LANGUAGES_PER_USER} languages.`);
        }
        const { rows } = await tx.query<{ id: string; userId: string; languageCode: string; createdOn: Date }>(
          `insert into user_languages (tenant_id, user_id, language_code, created_at) values ($1, $2, $3, $4) returning ${languageColumns}`,
          [p.tenantId, userId, code, deps.identity.clock.now()],
        );
        return rows[0];
      });
      return reply.status(201).send(toLanguage(row));
    },
  );

  app.post(
    '/v1/userlanguage/search',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: languageTags,
        security,
        summary: "A user's languages: your own, or a user in your scope with Permissions.Users.View",
        body: S.UserLanguageSearchBody,
        response: { 200: Type.Array(S.UserLanguage) },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const userId = await targetUser(deps, p, request.body.userId, P.Users.View);
      const { rows } = await db.query<{ id: string; userId: string; languageCode: string; createdOn: Date }>(
        `select ${languageColumns} from user_languages where tenant_id = $1 and user_id = $2 order by created_at, id`,
        [p.tenantId, userId],
      );
      return rows.map(toLanguage);
    },
  );

  app.delete(
    '/v1/userlanguage/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: languageTags,
        security,
        summary: 'Remove a language (yours, or of a user in your scope with Permissions.Users.Update)',
        params: S.IdParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const { rows } = await db.query<{ userId: string }>(`select user_id as "userId" from user_languages where id = $1 and tenant_id = $2`, [
        request.params.id,
        p.tenantId,
      ]);
      if (!rows[0]) throw notFound('The language was not found.');
      try {
        await targetUser(deps, p, rows[0].userId, P.Users.Update);
      } catch {
        throw notFound('The language was not found.');
      }
      await db.query(`delete from user_languages where id = $1`, [request.params.id]);
      return reply.status(204).send(null);
    },
  );
}

/** en-in → en-IN, GU → gu: language lower case, region upper case, script title case. */
export function canonicalLanguage(code: string): string {
  return code
    .trim()
    .split('-')
    .map((part, index) => {
      if (index === 0) return part.toLowerCase();
      if (part.length === 2) return part.toUpperCase();
      if (part.length === 4) return part[0].toUpperCase() + part.slice(1).toLowerCase();
      return part.toLowerCase();
    })
    .join('-');
}
