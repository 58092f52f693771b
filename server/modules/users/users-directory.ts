import { Client, escapeFilter, InvalidCredentialsError, type Entry } from 'ldapts';
import type { LdapConfig } from '#server/config.ts';
import { AppError } from '#server/lib/errors.ts';
import type { PasswordVerifier } from '#server/modules/identity/password-verifiers.ts';

/** A person in the enterprise directory, as the import screens show it. */
export interface DirectoryEntry {
  dn: string;
  userName: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  displayName: string | null;
}

export interface DirectoryService {
  findUser(userName: string): Promise<DirectoryEntry | undefined>;
  search(keyword: string | undefined, limit: number): Promise<DirectoryEntry[]>;
  /** An LDAP bind as the user's entry with this password. */
  verifyPassword(userName: string, password: string): Promise<boolean>;
}

/** Most entries a directory search returns (the page is cut from these). */
export const DIRECTORY_SEARCH_LIMIT = 500;
const TIMEOUT_MS = 5000;
const attributes = ['uid', 'sAMAccountName', 'mail', 'givenName', 'sn', 'cn', 'displayName'];

const first = (value: Entry[string] | undefined): string | null => {
  if (value === undefined) return null;
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined) return null;
  return Buffer.isBuffer(v) ? v.toString('utf8') : String(v);
};

function toEntry(entry: Entry): DirectoryEntry | undefined {
  const userName = first(entry.uid) ?? first(entry.sAMAccountName);
  if (!userName) return undefined;
  return {
    dn: entry.dn,
    userName,
    email: first(entry.mail),
    firstName: first(entry.givenName),
    lastName: first(entry.sn),
    displayName: first(entry.displayName) ?? first(entry.cn),
  };
}

const unreachable = (error: unknown) =>
  new AppError(502, 'The enterprise directory could not be reached. Please try again later or contact Admin.', {
    extra: { reason: 'directoryUnavailable', detail: error instanceof Error ? error.message : String(error) },
  });

/**
 * The directory over LDAP with `ldapts`: a service bind (LDAP_BIND_DN / LDAP_BIND_PASSWORD)
 * searches under LDAP_BASE_DN by uid (OpenLDAP) or sAMAccountName (Active Directory); a
 * user's password is checked by binding as their entry. Every value put into a filter is
 * escaped (RFC 4515), so a user name cannot change the filter.
 */
export function ldapDirectory(config: LdapConfig): DirectoryService {
  async function withServiceBind<T>(work: (client: Client) => Promise<T>): Promise<T> {
    const client = new Client({ url: config.url, timeout: TIMEOUT_MS, connectTimeout: TIMEOUT_MS });
    try {
      if (config.bindDn) await client.bind(config.bindDn, config.bindPassword);
      return await work(client);
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw unreachable(error);
    } finally {
      await client.unbind().catch(() => undefined);
    }
  }

  async function lookup(client: Client, userName: string): Promise<DirectoryEntry | undefined> {
    const { searchEntries } = await client.search(config.baseDn, {
      scope: 'sub',
      filter: escapeFilter`(|(uid=${userName})(sAMAccountName=${userName}))`,
      attributes,
      sizeLimit: 2,
    });
    // Two entries with one user name is a directory fault; refuse rather than guess.
    if (searchEntries.length !== 1) return undefined;
    return toEntry(searchEntries[0]);
  }

  return {
    findUser: (userName) => withServiceBind((client) => lookup(client, userName)),

    search: (keyword, limit) =>
      withServiceBind(async (client) => {
        const k = keyword?.trim();
        const filter = k
          ? escapeFilter`(&(|(objectClass=person)(objectClass=inetOrgPerson))(|(uid=*${k}*)(sAMAccountName=*${k}*)(cn=*${k}*)(mail=*${k}*)(givenName=*${k}*)(sn=*${k}*)))`
          : '(&(|(objectClass=person)(objectClass=inetOrgPerson))(|(uid=*)(sAMAccountName=*)))';
        try {
          const { searchEntries } = await client.search(config.baseDn, { scope: 'sub', filter, attributes, sizeLimit: limit });
          return searchEntries.map(toEntry).filter((e): e is DirectoryEntry => e !== undefined);
        } catch (error) {
          // More matches than the limit: the server sends what it has with sizeLimitExceeded.
          if ((error as { name?: string }).name === 'SizeLimitExceededError') return [];
          throw error;
        }
      }),

    async verifyPassword(userName, password) {
      // An empty password is an unauthenticated bind, which LDAP servers accept: never a sign-in.
      if (!password) return false;
      const entry = await withServiceBind((client) => lookup(client, userName));
      if (!entry) return false;
      const client = new Client({ url: config.url, timeout: TIMEOUT_MS, connectTimeout: TIMEOUT_MS });
      try {
        await client.bind(entry.dn, password);
        return true;
      } catch (error) {
        if (error instanceof InvalidCredentialsError) return false;
        throw unreachable(error);
      } finally {
        await client.unbind().catch(() => undefined);
      }
    },
  };
}

/** The `directory` password verifier of the sign-in flow: an LDAP bind as the account's user name. */
export function directoryPasswordVerifier(directory: DirectoryService): PasswordVerifier {
  return { verify: (subject, password) => directory.verifyPassword(subject.userName, password) };
}
