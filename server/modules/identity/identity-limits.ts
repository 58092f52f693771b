/**
 * Every number of SECURITY.md "Passwords", "Sign-in with the e-mailed code", "Brute force and
 * enumeration" and "Tokens and sessions", in one place. Tests import these, so a changed number
 * changes what the tests prove.
 */
export const identityLimits = {
  password: {
    minLength: 12,
    /** Longest password a new password may be; sign-in compares up to the field limit, never truncating. */
    maxLength: 256,
    /** zxcvbn score a new password needs (3 = about 10^8 guesses). */
    minStrengthScore: 3,
    /** Characters the guessability estimate looks at (its cost grows steeply with length). */
    estimatedPrefixLength: 64,
    /** Parts of the user's name or e-mail shorter than this are not searched for in the password. */
    minPersonalPartLength: 3,
  },
  code: {
    digits: 6,
    lifetimeSeconds: 10 * 60,
    maxWrongAttempts: 5,
    maxPerAccountPerHour: 10,
    resendCooldownSeconds: 30,
  },
  lockout: {
    maxConsecutiveFailures: 10,
    lockSeconds: 15 * 60,
  },
  refreshToken: {
    bytes: 32,
    absoluteLifetimeSeconds: 7 * 24 * 60 * 60,
  },
  accountToken: {
    bytes: 32,
    resetPasswordSeconds: 30 * 60,
    confirmEmailSeconds: 24 * 60 * 60,
    invitationSeconds: 72 * 60 * 60,
  },
} as const;
