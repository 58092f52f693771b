import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id; the package exports a const enum, which isolated modules cannot read.
const ARGON2ID = 2;

/** argon2id at OWASP's minimum (19 MiB, 2 passes, 1 lane); SECURITY.md "Passwords". */
export const argon2Options = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, argon2Options);
}

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
