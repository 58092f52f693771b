import { verifyPassword } from '#server/lib/passwords.ts';

export type LoginType = 'local' | 'directory';

/** What a verifier may look at; it never sees more of the account than this. */
export interface CredentialSubject {
  userId: string;
  tenantId: string;
  email: string;
  userName: string;
  passwordHash: string | null;
}

/**
 * Checks a password for one kind of account. The sign-in flow asks the verifier of the
 * account's `login_type` and knows nothing else: directory users (issue 6) plug in an LDAP
 * bind here without touching sign-in, lockout or the e-mailed code.
 */
export interface PasswordVerifier {
  verify(subject: CredentialSubject, password: string): Promise<boolean>;
}

export type PasswordVerifiers = Record<LoginType, PasswordVerifier>;

/** argon2id against the stored hash. */
export const localPasswordVerifier: PasswordVerifier = {
  verify: (subject, password) => verifyPassword(subject.passwordHash, password),
};

/** Until a directory is configured, a directory account cannot sign in with any password. */
export const unconfiguredDirectoryVerifier: PasswordVerifier = {
  verify: async () => false,
};

export const defaultPasswordVerifiers: PasswordVerifiers = {
  local: localPasswordVerifier,
  directory: unconfiguredDirectoryVerifier,
};
