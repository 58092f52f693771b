/**
 * The yardstick of the `api` bench: the same first page our searches answer, read with one raw
 * `pg` keyset query (same columns, same joins, same order, no count, no auth, no validation)
 * behind `node:http`. Whatever our server costs beyond this is framework, auth and counting.
 * Run as its own process: `node --import tsx scripts/bench/raw-keyset-server.ts <port>`,
 * with DATABASE_URL set. It exits when its stdin closes.
 */
import { createServer } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const port = Number(process.argv[2]);

const queries: Record<string, string> = {
  '/tickets': `select t.id, t.tenant_id, t.title, t.description, t.requester_id, t.created_by, t.priority_id,
      t.support_group_id, t.status_id, t.assignee_id, t.parent_ticket_id, t.answer, t.resolved_at, t.closed_at,
      t.version, t.created_at, t.updated_at, g.name as support_group_name,
      trim(r.first_name || ' ' || r.last_name) as requester_name, r.email as requester_email,
      nullif(trim(coalesce(a.first_name, '') || ' ' || coalesce(a.last_name, '')), '') as assignee_name
    from support_tickets t join support_groups g on g.id = t.support_group_id
      join users r on r.id = t.requester_id left join users a on a.id = t.assignee_id
    where t.tenant_id = $1 order by t.created_at desc, t.id desc limit 10`,
  '/users': `select u.id, u.first_name as "firstName", u.last_name as "lastName", u.email, u.user_name as "userName",
      u.phone_number as "phoneNumber", to_char(u.date_of_birth, 'YYYY-MM-DD') as "dateOfBirth", u.login_type as "loginType",
      u.user_type as "userType", u.reseller_id as "resellerId", u.institute_id as "instituteId", u.is_active as "isActive",
      u.email_confirmed as "emailConfirmed", u.is_first_time_login as "isFirstTimeLogin", u.preferred_language as "preferredLanguage",
      coalesce((select json_agg(json_build_object('roleId', r.id, 'roleName', r.name) order by r.name)
                from user_roles ur join roles r on r.id = ur.role_id and r.tenant_id = u.tenant_id
                where ur.user_id = u.id), '[]'::json) as roles,
      u.created_at as "createdOn"
    from users u where u.tenant_id = $1 order by u.created_at desc, u.id desc limit 10`,
};

const server = createServer((req, res) => {
  const sql = queries[req.url ?? ''];
  if (!sql) {
    res.writeHead(404).end();
    return;
  }
  req.resume();
  req.on('end', () => {
    pool.query(sql, ['root']).then(
      (r) => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: r.rows }));
      },
      (error: Error) => res.writeHead(500).end(error.message),
    );
  });
});
server.listen(port, '127.0.0.1', () => console.log('listening'));
process.stdin.on('close', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
process.stdin.resume();
