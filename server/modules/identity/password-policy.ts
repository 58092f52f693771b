import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { identityLimits } from './identity-limits.ts';

/** Whose password it is: the parts of name and e-mail a password must not contain. */
export interface PasswordOwner {
  firstName?: string | null;
  lastName?: string | null;
  userName?: string | null;
  email?: string | null;
}

export const passwordMessages = {
  tooShort: `Passwords must be at least ${identityLimits.password.minLength} characters long.`,
  tooLong: `Passwords must be at most ${identityLimits.password.maxLength} characters long.`,
  common: 'This password is on a list of common or breached passwords. Choose a different one.',
  personal: 'The password must not contain your name, user name or e-mail address.',
  weak: 'This password is too easy to guess.',
  weakAdvice: 'Use a longer phrase of unrelated words.',
  mismatch: 'The passwords do not match.',
  sameAsCurrent: 'The new password must be different from the current one.',
} as const;

interface Checker {
  zxcvbn: ZxcvbnFactory;
  common: ReadonlySet<string>;
}

let checker: Promise<Checker> | undefined;

/** The dictionaries take ~200 ms to load: loaded on the first check, not at start-up. */
function loadChecker(): Promise<Checker> {
  checker ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-en'),
    ]);
    return {
      zxcvbn: new ZxcvbnFactory({
        dictionary: { ...common.dictionary, ...en.dictionary },
        graphs: common.adjacencyGraphs,
        translations: en.translations,
        // The default (100) lets the l33t matcher take seconds on crafted input; 10 keeps it under ~0.1 s.
        l33tMaxSubstitutions: 10,
      }),
      common: new Set(common.dictionary['passwords-common'].map((p) => p.toLowerCase())),
    };
  })();
  return checker;
}

/** Characters as the user sees them (code points), so a 12-emoji password counts 12. */
export function passwordLength(password: string): number {
  return [...password].length;
}

const letters = (value: string) => value.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

function personalParts(owner: PasswordOwner): string[] {
  const local = owner.email?.split('@')[0] ?? '';
  const sources = [owner.firstName, owner.lastName, owner.userName, local].filter((v): v is string => !!v);
  const parts = new Set<string>();
  for (const source of sources) {
    parts.add(letters(source));
    for (const piece of source.split(/[^\p{L}\p{N}]+/u)) parts.add(letters(piece));
  }
  return [...parts].filter((part) => passwordLength(part) >= identityLimits.password.minPersonalPartLength);
}

/**
 * Why a new password is refused, or an empty list (SECURITY.md "Passwords", NIST SP 800-63B
 * §3.1.1.2): length 12 to 256 code points, no composition rules, not on the offline list of
 * common and breached passwords, not containing the owner's name or e-mail, and not guessable
 * by zxcvbn's pattern and dictionary estimate. The password is never changed before comparing.
 */
export async function passwordProblems(password: string, owner: PasswordOwner): Promise<string[]> {
  const length = passwordLength(password);
  if (length < identityLimits.password.minLength) return [passwordMessages.tooShort];
  if (length > identityLimits.password.maxLength) return [passwordMessages.tooLong];
  const { zxcvbn, common } = await loadChecker();
  if (common.has(password.toLowerCase())) return [passwordMessages.common];
  const flattened = letters(password);
  if (personalParts(owner).some((part) => flattened.includes(part))) return [passwordMessages.personal];
  // Estimated on the first 64 characters: a password whose first 64 are hard to guess is hard to
  // guess, and the estimate's cost grows steeply with length (a DoS lever on public routes).
  const estimated = [...password].slice(0, identityLimits.password.estimatedPrefixLength).join('');
  const result = zxcvbn.check(estimated, personalParts(owner));
  if (result.score < identityLimits.password.minStrengthScore) {
    const warning = result.feedback.warning;
    return [[passwordMessages.weak, warning, passwordMessages.weakAdvice].filter(Boolean).join(' ')];
  }
  return [];
}
