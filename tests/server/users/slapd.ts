import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A real OpenLDAP server (Debian's `slapd`, installed by .ci/run) on a free loopback port,
 * with its own temporary database seeded from LDIF. It stops with `stop()`, and by itself
 * after `lifetimeSeconds` (run under coreutils `timeout`) should a test run die first.
 */
export const SLAPD = '/usr/sbin/slapd';
export const BASE_DN = 'dc=example,dc=test';
export const ADMIN_DN = `cn=admin,${BASE_DN}`;
export const ADMIN_PASSWORD = 'directory-admin-secret';

export interface DirectoryPerson {
  uid: string;
  givenName: string;
  sn: string;
  mail?: string;
  password: string;
}

export const slapdAvailable = existsSync(SLAPD);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`slapd did not listen on ${port} within ${timeoutMs} ms`);
}

function ldif(people: readonly DirectoryPerson[]): string {
  const entries = [
    `dn: ${BASE_DN}\nobjectClass: top\nobjectClass: dcObject\nobjectClass: organization\no: Example\ndc: example`,
    `dn: ou=people,${BASE_DN}\nobjectClass: organizationalUnit\nou: people`,
    ...people.map(
      (p) =>
        `dn: uid=${p.uid},ou=people,${BASE_DN}\nobjectClass: inetOrgPerson\nuid: ${p.uid}\ncn: ${p.givenName} ${p.sn}\n` +
        `givenName: ${p.givenName}\nsn: ${p.sn}\n${p.mail ? `mail: ${p.mail}\n` : ''}userPassword: ${p.password}`,
    ),
  ];
  return `${entries.join('\n\n')}\n`;
}

export async function startSlapd(people: readonly DirectoryPerson[], lifetimeSeconds = 600) {
  const dir = await mkdtemp(path.join(tmpdir(), 'slapd-test-'));
  await mkdir(path.join(dir, 'db'));
  const conf = path.join(dir, 'slapd.conf');
  await writeFile(
    conf,
    [
      'include /etc/ldap/schema/core.schema',
      'include /etc/ldap/schema/cosine.schema',
      'include /etc/ldap/schema/inetorgperson.schema',
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      `pidfile ${dir}/slapd.pid`,
      'database mdb',
      'maxsize 10485760',
      `suffix "${BASE_DN}"`,
      `rootdn "${ADMIN_DN}"`,
      `rootpw ${ADMIN_PASSWORD}`,
      `directory ${dir}/db`,
      // people may bind as themselves; only the admin reads passwords
      'access to attrs=userPassword by self =xw by anonymous auth by * none',
      'access to * by users read by * none',
      '',
    ].join('\n'),
  );
  const seedFile = path.join(dir, 'seed.ldif');
  await writeFile(seedFile, ldif(people));
  const added = spawnSync('/usr/sbin/slapadd', ['-f', conf, '-l', seedFile], { encoding: 'utf8' });
  if (added.status !== 0) throw new Error(`slapadd failed: ${added.stderr}`);
  const port = await freePort();
  const child: ChildProcess = spawn('timeout', [String(lifetimeSeconds), SLAPD, '-f', conf, '-h', `ldap://127.0.0.1:${port}/`, '-d', '0'], {
    stdio: 'ignore',
  });
  await waitForPort(port, 10_000);
  return {
    url: `ldap://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
