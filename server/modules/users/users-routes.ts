import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { P } from '#machines/permissions.ts';
import { notFound, ValidationFailure } from '#server/lib/errors.ts';
import { paged, pageWindow, searchKeyword } from '#server/lib/paging.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { requestMeta } from '#server/modules/identity/identity-context.ts';
import { DIRECTORY_SEARCH_LIMIT } from './users-directory.ts';
import * as repo from './users-repository.ts';
import * as S from './users-schemas.ts';
import {
  activeRoles,
  createUser,
  editUser,
  loadInScope,
  requireDirectory,
  scopeOf,
  setRoles,
  toggleEmailStatus,
  toggleStatus,
  toUserDto,
  userRoles,
  usersMessages,
  type UsersDeps,
} from './users-service.ts';

const tags = ['users and roles'];
const security = [{ bearer: [] }];

function assertBodyId(pathId: string, bodyId: string | undefined) {
  if (bodyId && bodyId.toLowerCase() !== pathId.toLowerCase()) throw ValidationFailure.field('userId', usersMessages.bodyUserIdMismatch);
}

/** Spec §7 "Users and roles" (and the directory look-ups), under /api. */
export async function usersRoutes(fastify: FastifyInstance, deps: UsersDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const db = deps.identity.db;

  app.post(
    '/users/search',
    {
      config: { access: P.Users.Search },
      schema: { tags, security, summary: 'Search users of your tenant and scope (paged)', body: S.UserSearchBody, response: { 200: S.UserPage } },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const result = await repo.searchUsers(db, scopeOf(p), request.body);
      return paged(result.rows.map(toUserDto), result.total, result.window);
    },
  );

  app.post(
    '/users/userlistbyuserids',
    {
      config: { access: { anyOf: [P.Users.View, P.Users.Search] } },
      schema: {
        tags,
        security,
        summary: 'The users with these ids (unknown or out-of-scope ids are left out)',
        body: S.UserIdsBody,
        response: { 200: Type.Array(S.UserDetail) },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const ids = [...new Set(request.body.userIds.map((id) => id.toLowerCase()))];
      return (await repo.findUsersByIds(db, scopeOf(p), ids)).map(toUserDto);
    },
  );

  app.get(
    '/users/:id',
    {
      config: { access: P.Users.View },
      schema: { tags, security, summary: 'One user', params: S.IdParams, response: { 200: S.UserDetail } },
    },
    async (request) => toUserDto(await loadInScope(deps, requirePrincipal(request), request.params.id)),
  );

  app.post(
    '/users',
    {
      config: { access: P.Users.Create },
      schema: {
        tags,
        security,
        summary: 'Create a user (password or invitation; or import a directory user)',
        body: S.CreateUserBody,
        response: { 201: S.UserDetail },
      },
    },
    async (request, reply) => reply.status(201).send(await createUser(deps, requestMeta(request), requirePrincipal(request), request.body)),
  );

  app.put(
    '/users/edituser',
    {
      config: { access: P.Users.Update },
      schema: { tags, security, summary: "Edit a user's profile fields", body: S.EditUserBody, response: { 200: S.UserDetail } },
    },
    async (request) => editUser(deps, requestMeta(request), requirePrincipal(request), request.body),
  );

  app.get(
    '/users/:id/roles',
    {
      config: { access: P.UserRoles.View },
      schema: { tags, security, summary: 'Every role of the tenant, enabled where the user has it', params: S.IdParams, response: { 200: S.UserRoleList } },
    },
    async (request) => userRoles(deps, requirePrincipal(request), request.params.id),
  );

  app.post(
    '/users/:id/roles',
    {
      config: { access: P.UserRoles.Update },
      schema: {
        tags,
        security,
        summary: 'Enable or disable roles of a user',
        description: 'Only roles whose permissions you hold yourself; never your own roles. The change applies to the user’s next request.',
        params: S.IdParams,
        body: S.UserRolesBody,
        response: { 200: Type.Object({ message: Type.String(), userId: S.Uuid, roles: S.UserRoleList }) },
      },
    },
    async (request) => setRoles(deps, requirePrincipal(request), request.params.id, request.body.userRoles),
  );

  app.get(
    '/users/:id/activeroles',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        security,
        summary: 'The roles a user has (your own, or any user in scope with Permissions.UserRoles.View)',
        params: S.IdParams,
        response: { 200: S.ActiveRoleList },
      },
    },
    async (request) => activeRoles(deps, requirePrincipal(request), request.params.id),
  );

  app.post(
    '/users/:id/toggle-status',
    {
      config: { access: P.Users.Update },
      schema: {
        tags,
        security,
        summary: 'Activate or deactivate a user (deactivation signs them out everywhere at once)',
        params: S.IdParams,
        body: S.ToggleStatusBody,
        response: { 200: S.ToggleResult },
      },
    },
    async (request) => {
      assertBodyId(request.params.id, request.body.userId);
      return toggleStatus(deps, requestMeta(request), requirePrincipal(request), request.params.id, request.body.activateUser);
    },
  );

  app.post(
    '/users/:id/toggle-email-status',
    {
      config: { access: P.Users.Update },
      schema: {
        tags,
        security,
        summary: "Confirm or unconfirm a user's e-mail address",
        params: S.IdParams,
        body: S.ToggleEmailBody,
        response: { 200: S.ToggleResult },
      },
    },
    async (request) => {
      assertBodyId(request.params.id, request.body.userId);
      return toggleEmailStatus(deps, requirePrincipal(request), request.params.id, request.body.activateEmail);
    },
  );

  app.post(
    '/roles/search',
    {
      config: { access: P.Roles.View },
      schema: {
        tags,
        security,
        summary: 'Roles of your tenant with their permissions and how many users (in your scope) have each',
        body: S.RoleSearchBody,
        response: { 200: S.RolePage },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const result = await repo.searchRoles(db, p.tenantId, request.body, scopeOf(p));
      return paged(result.rows, result.total, result.window);
    },
  );

  // ---- the enterprise directory (LDAP) -------------------------------------------------------

  const alreadyImported = async (tenantId: string, userNames: string[]) => (await repo.takenIdentifiers(db, tenantId, [], userNames)).userNames;

  app.get(
    '/users/getusersfromad',
    {
      config: { access: P.DirectoryUsers.Search },
      schema: {
        tags: ['directory users'],
        security,
        summary: 'Look up one directory user by user name (400 when LDAP_URL is not configured; 404 when there is none)',
        querystring: S.DirectoryLookupQuery,
        response: { 200: S.DirectoryUser },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const entry = await requireDirectory(deps).findUser(request.query.userName.trim());
      if (!entry) throw notFound(usersMessages.directoryUserNotFound);
      const imported = await alreadyImported(p.tenantId, [entry.userName]);
      const { dn: _dn, ...rest } = entry;
      return { ...rest, alreadyImported: imported.has(entry.userName.toLowerCase()) };
    },
  );

  app.post(
    '/users/searchusersfromad',
    {
      config: { access: P.DirectoryUsers.Search },
      schema: {
        tags: ['directory users'],
        security,
        summary: `Search the directory (keyword over user name, names and e-mail; at most ${DIRECTORY_SEARCH_LIMIT} matches are paged)`,
        body: S.DirectorySearchBody,
        response: { 200: S.DirectoryPage },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const entries = await requireDirectory(deps).search(searchKeyword(request.body), DIRECTORY_SEARCH_LIMIT);
      entries.sort((a, b) => a.userName.localeCompare(b.userName));
      const window = pageWindow(request.body);
      const page = entries.slice(window.offset, window.offset + window.limit);
      const imported = await alreadyImported(
        p.tenantId,
        page.map((e) => e.userName),
      );
      return paged(
        page.map(({ dn: _dn, ...rest }) => ({ ...rest, alreadyImported: imported.has(rest.userName.toLowerCase()) })),
        entries.length,
        window,
      );
    },
  );
}
