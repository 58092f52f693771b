import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { supportedLocales } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { AppError, notFound, unauthorized, ValidationFailure } from '#server/lib/errors.ts';
import { cleanFileName, detectFileType } from '#server/lib/file-types.ts';
import { oneFile } from '#server/lib/one-file.ts';
import { paged, pageWindow, searchRequestProperties } from '#server/lib/paging.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { requestMeta } from '#server/modules/identity/identity-context.ts';
import { recordLoginEvent } from '#server/modules/identity/login-history-repository.ts';
import { revokeFamily, revokeUserFamilies } from '#server/modules/identity/sessions-repository.ts';
import type { Clock } from '#server/lib/clock.ts';
import { readableDevice } from './user-agent.ts';

const tags = ['profile'];
const security = [{ bearer: [] }];

const Iso = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Device = Type.Object({ browser: Nullable(Type.String()), os: Nullable(Type.String()), platform: Nullable(Type.String()) });

const Profile = Type.Object({
  id: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  email: Type.String(),
  userName: Type.String(),
  phoneNumber: Nullable(Type.String()),
  dateOfBirth: Nullable(Type.String({ format: 'date' })),
  preferredLanguage: Nullable(Type.String()),
  languages: Type.Array(Type.String(), { description: 'The language codes the user works in (user languages)' }),
  roles: Type.Array(Type.String()),
  editable: Type.Array(Type.String(), { description: 'The fields PUT /v1/profile accepts from you' }),
  hasPhoto: Type.Boolean({ description: 'Whether you uploaded a photo (GET /v1/profile/photo); without one the avatar shows your initials' }),
});

const PhotoInfo = Type.Object({ mime: Type.String(), sizeBytes: Type.Integer(), updatedOn: Iso });

const ProfileBody = Type.Object(
  {
    firstName: Type.Optional(Type.String({ maxLength: 100 })),
    lastName: Type.Optional(Type.String({ maxLength: 100 })),
    phoneNumber: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
    dateOfBirth: Type.Optional(Nullable(Type.String({ maxLength: 10 }))),
  },
  { additionalProperties: false },
);

const LanguageBody = Type.Object({ language: Nullable(Type.String({ maxLength: 16 })) }, { additionalProperties: false });

const Session = Type.Object({
  id: Type.String(),
  current: Type.Boolean(),
  createdOn: Iso,
  lastUsedOn: Iso,
  expiresOn: Iso,
  ipAddress: Nullable(Type.String()),
  device: Device,
});

const HistoryEntry = Type.Object({
  id: Type.String(),
  time: Iso,
  event: Type.String(),
  outcome: Type.Union([Type.Literal('success'), Type.Literal('failure')]),
  reason: Nullable(Type.String()),
  ipAddress: Nullable(Type.String()),
  device: Device,
});

/** A profile photo: an avatar needs no more (the upload guards of SECURITY.md: size, then content). */
export const MAX_PHOTO_BYTES = 1024 * 1024;
const PHOTO_KINDS = new Set(['png', 'jpeg', 'webp']);

/** What a person may change about themselves (docs/decisions/0261): e-mail and user name are how they sign in, so an administrator changes them. */
export const SELF_EDITABLE = ['firstName', 'lastName', 'phoneNumber', 'dateOfBirth'] as const;

const messages = {
  required: (field: string) => `The ${field} field is required.`,
  phone: 'Use digits, spaces and + ( ) - . only.',
  date: 'Use a date as yyyy-mm-dd.',
  future: 'The date of birth cannot be in the future.',
  tooEarly: 'The date of birth must be after 1900-01-01.',
  language: `Choose one of: ${supportedLocales.join(', ')}.`,
  sessionNotFound: 'Session not found.',
};

interface ProfileRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  userName: string;
  phoneNumber: string | null;
  dateOfBirth: Date | string | null;
  preferredLanguage: string | null;
}

const dateOnly = (value: Date | string | null) => {
  if (value === null) return null;
  if (typeof value === 'string') return value.slice(0, 10);
  // A date column comes back as local midnight: keep the calendar day.
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
};

/**
 * The signed-in person's own profile (issue 21, `/account`): their details, the language kept
 * on the server, their sign-in history with readable devices, and their open sessions (the
 * DPoP-bound refresh families of decision 0100), which they may end one by one or all but this one.
 */
export async function profileRoutes(fastify: FastifyInstance, deps: { db: Db; clock: Clock }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = deps;

  const load = async (userId: string, roles: readonly string[]) => {
    const { rows } = await db.query<ProfileRow>(
      `select id, first_name as "firstName", last_name as "lastName", email, user_name as "userName", phone_number as "phoneNumber",
              date_of_birth as "dateOfBirth", preferred_language as "preferredLanguage" from users where id = $1`,
      [userId],
    );
    const row = rows[0];
    if (!row) throw notFound('User not found.');
    const [{ rows: languages }, { rows: photo }] = await Promise.all([
      db.query<{ code: string }>('select language_code as code from user_languages where user_id = $1 order by created_at, language_code', [userId]),
      db.query('select 1 from user_photos where user_id = $1', [userId]),
    ]);
    return {
      ...row,
      dateOfBirth: dateOnly(row.dateOfBirth),
      languages: languages.map((l) => l.code),
      roles: [...roles],
      editable: [...SELF_EDITABLE],
      hasPhoto: photo.length > 0,
    };
  };

  app.get(
    '/v1/profile',
    { config: { access: 'authenticated' }, schema: { tags, security, summary: 'Your profile', response: { 200: Profile } } },
    async (request) => {
      const p = requirePrincipal(request);
      return load(p.userId, p.roles);
    },
  );

  app.put(
    '/v1/profile',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        security,
        summary: 'Change your name, phone number or date of birth',
        description: 'Validation errors come per field (400 `errors`). E-mail and user name are changed by an administrator.',
        body: ProfileBody,
        response: { 200: Profile },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const body = request.body;
      const errors: Record<string, string[]> = {};
      const sets: string[] = [];
      const params: unknown[] = [p.userId];
      const put = (column: string, value: unknown) => {
        params.push(value);
        sets.push(`${column} = $${params.length}`);
      };
      for (const [field, column] of [
        ['firstName', 'first_name'],
        ['lastName', 'last_name'],
      ] as const) {
        const value = body[field];
        if (value === undefined) continue;
        if (!value.trim()) errors[field] = [messages.required(field === 'firstName' ? 'first name' : 'last name')];
        else put(column, value.trim());
      }
      if (body.phoneNumber !== undefined) {
        const phone = body.phoneNumber?.trim() || null;
        if (phone && !/^[0-9+()\- .]+$/.test(phone)) errors.phoneNumber = [messages.phone];
        else put('phone_number', phone);
      }
      if (body.dateOfBirth !== undefined) {
        const date = body.dateOfBirth?.trim() || null;
        const valid =
          date === null ||
          (/^\d{4}-\d{2}-\d{2}$/.test(date) && !Number.isNaN(Date.parse(`${date}T00:00:00Z`)) && new Date(`${date}T00:00:00Z`).toISOString().startsWith(date));
        if (!valid) errors.dateOfBirth = [messages.date];
        else if (date && date > deps.clock.now().toISOString().slice(0, 10)) errors.dateOfBirth = [messages.future];
        else if (date && date < '1900-01-01') errors.dateOfBirth = [messages.tooEarly];
        else put('date_of_birth', date);
      }
      if (Object.keys(errors).length) throw new ValidationFailure(errors);
      if (sets.length) await db.query(`update users set ${sets.join(', ')}, updated_at = now() where id = $1`, params);
      return load(p.userId, p.roles);
    },
  );

  app.get(
    '/v1/profile/photo',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        security,
        summary: 'Your photo (PNG, JPEG or WebP); 204 when you have none (the avatar then shows your initials)',
        response: { 200: Type.Unknown({ description: 'The image' }), 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const { rows } = await db.query<{ mime: string; content: Uint8Array }>('select mime, content from user_photos where user_id = $1', [p.userId]);
      if (!rows[0]) return reply.status(204).send(null);
      return reply
        .header('content-type', rows[0].mime)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(rows[0].content));
    },
  );

  app.put(
    '/v1/profile/photo',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        security,
        summary: 'Upload your photo (multipart, field "file": PNG, JPEG or WebP, at most 1 MB); replaces the one before',
        description: 'The type is read from the content, never from the file name or its Content-Type: anything else is refused with 415.',
        consumes: ['multipart/form-data'],
        response: { 200: PhotoInfo },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const file = await oneFile(request, MAX_PHOTO_BYTES, 'The photo must be at most 1 MB.');
      const name = cleanFileName(file.fileName, 'photo');
      if (file.content.length === 0) throw new AppError(400, `${name} is empty.`);
      const type = detectFileType(file.content);
      if (!type || !PHOTO_KINDS.has(type.kind)) throw new AppError(415, `${name} is not a PNG, JPEG or WebP image.`);
      const { rows } = await db.query<{ updatedOn: Date }>(
        `insert into user_photos (user_id, mime, size_bytes, content, updated_at) values ($1, $2, $3, $4, $5)
         on conflict (user_id) do update set mime = excluded.mime, size_bytes = excluded.size_bytes, content = excluded.content, updated_at = excluded.updated_at
         returning updated_at as "updatedOn"`,
        [p.userId, type.mime, file.content.length, file.content, deps.clock.now()],
      );
      return { mime: type.mime, sizeBytes: file.content.length, updatedOn: new Date(rows[0].updatedOn).toISOString() };
    },
  );

  app.delete(
    '/v1/profile/photo',
    {
      config: { access: 'authenticated' },
      schema: { tags, security, summary: 'Remove your photo: the avatar shows your initials again', response: { 204: Type.Null() } },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      await db.query('delete from user_photos where user_id = $1', [p.userId]);
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/v1/profile/language',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        security,
        summary: 'Keep your language on the server',
        description:
          'Applied at your next sign-in on any device, and used for every e-mail you get. `null` forgets it (e-mails then follow the browser or en-IN).',
        body: LanguageBody,
        response: { 200: Type.Object({ preferredLanguage: Nullable(Type.String()) }) },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const wanted = request.body.language;
      const language = wanted === null ? null : supportedLocales.find((l) => l.toLowerCase() === wanted.trim().toLowerCase());
      if (language === undefined) throw ValidationFailure.field('language', messages.language);
      await db.query('update users set preferred_language = $2, updated_at = now() where id = $1', [p.userId, language]);
      return { preferredLanguage: language };
    },
  );

  app.post(
    '/v1/profile/loginhistory',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        security,
        summary: 'Your sign-ins, failed sign-ins (with the reason), sign-outs and ended sessions, newest first, with readable devices',
        body: Type.Object({ pageNumber: searchRequestProperties.pageNumber, pageSize: searchRequestProperties.pageSize }),
        response: {
          200: Type.Object({
            data: Type.Array(HistoryEntry),
            currentPage: Type.Integer(),
            totalPages: Type.Integer(),
            totalCount: Type.Integer(),
            pageSize: Type.Integer(),
            hasPreviousPage: Type.Boolean(),
            hasNextPage: Type.Boolean(),
          }),
        },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const window = pageWindow(request.body);
      const [page, count] = await Promise.all([
        db.query<{ id: string; time: Date; event: string; reason: string | null; ip: string | null; userAgent: string | null }>(
          `select id, occurred_at as time, event, reason, ip, user_agent as "userAgent" from login_history
           where user_id = $1 and tenant_id = $2 order by occurred_at desc, id desc limit $3 offset $4`,
          [p.userId, p.tenantId, window.limit, window.offset],
        ),
        db.query<{ n: number }>('select count(*)::int as n from login_history where user_id = $1 and tenant_id = $2', [p.userId, p.tenantId]),
      ]);
      const rows = page.rows.map((r) => ({
        id: r.id,
        time: new Date(r.time).toISOString(),
        event: r.event,
        outcome: r.event === 'loginFailed' ? ('failure' as const) : ('success' as const),
        reason: r.reason,
        ipAddress: r.ip,
        device: readableDevice(r.userAgent),
      }));
      return paged(rows, count.rows[0].n, window);
    },
  );

  app.get(
    '/v1/profile/sessions',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        security,
        summary: 'Your open sessions (one per sign-in on a device), this one first',
        response: { 200: Type.Object({ sessions: Type.Array(Session) }) },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const current = request.accessToken?.sessionId ?? null;
      const { rows } = await db.query<{ id: string; createdAt: Date; lastUsed: Date | null; expiresAt: Date; ip: string | null; userAgent: string | null }>(
        `select f.id, f.created_at as "createdAt", f.expires_at as "expiresAt", f.ip, f.user_agent as "userAgent",
                (select max(t.created_at) from refresh_tokens t where t.family_id = f.id) as "lastUsed"
         from refresh_token_families f
         where f.user_id = $1 and f.revoked_at is null and f.expires_at > $2
         order by (f.id = $3::uuid) desc, f.created_at desc limit 100`,
        [p.userId, deps.clock.now(), current],
      );
      return {
        sessions: rows.map((r) => ({
          id: r.id,
          current: r.id === current,
          createdOn: new Date(r.createdAt).toISOString(),
          lastUsedOn: new Date(r.lastUsed ?? r.createdAt).toISOString(),
          expiresOn: new Date(r.expiresAt).toISOString(),
          ipAddress: r.ip,
          device: readableDevice(r.userAgent),
        })),
      };
    },
  );

  app.post(
    '/v1/profile/sessions/:id/revoke',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        security,
        summary: 'Sign out one of your sessions (this device: the same as signing out)',
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        response: { 200: Type.Object({ revoked: Type.Integer(), current: Type.Boolean() }) },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const now = deps.clock.now();
      const id = request.params.id.toLowerCase();
      const { rows } = await db.query<{ id: string }>('select id from refresh_token_families where id = $1 and user_id = $2 and revoked_at is null', [
        id,
        p.userId,
      ]);
      if (!rows[0]) throw notFound(messages.sessionNotFound);
      const meta = requestMeta(request);
      await db.transaction(async (tx) => {
        await revokeFamily(tx, id, 'sessionsEnded', now);
        await recordLoginEvent(tx, {
          tenantId: p.tenantId,
          userId: p.userId,
          email: p.email,
          event: 'sessionRevoked',
          reason: null,
          ip: meta.ip,
          userAgent: meta.userAgent,
          at: now,
        });
      });
      return { revoked: 1, current: id === request.accessToken?.sessionId };
    },
  );

  app.post(
    '/v1/profile/sessions/revokeothers',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        security,
        summary: 'Sign out everywhere else: every session but this one ends',
        response: { 200: Type.Object({ revoked: Type.Integer(), current: Type.Boolean() }) },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const current = request.accessToken?.sessionId;
      if (!current) throw unauthorized();
      const now = deps.clock.now();
      const meta = requestMeta(request);
      const revoked = await db.transaction(async (tx) => {
        const n = await revokeUserFamilies(tx, p.userId, 'sessionsEnded', now, current);
        if (n)
          await recordLoginEvent(tx, {
            tenantId: p.tenantId,
            userId: p.userId,
            email: p.email,
            event: 'sessionRevoked',
            reason: null,
            ip: meta.ip,
            userAgent: meta.userAgent,
            at: now,
          });
        return n;
      });
      return { revoked, current: false };
    },
  );
}
