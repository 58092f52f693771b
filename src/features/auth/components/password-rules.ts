/** SECURITY.md / docs/decisions/0034: at least 12 characters (code points), at most 256. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

export const passwordLength = (password: string) => [...password].length;

/** The checks the client can make before the server's (list, personal and guessability checks stay there). */
export function passwordProblem(password: string): 'required' | 'tooShort' | 'tooLong' | null {
  if (!password) return 'required';
  const length = passwordLength(password);
  if (length < PASSWORD_MIN_LENGTH) return 'tooShort';
  if (length > PASSWORD_MAX_LENGTH) return 'tooLong';
  return null;
}

export const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());

/** Field messages of a 400 problem-details answer (the server's password reasons among them). */
export function problemErrors(error: unknown): Record<string, string[]> | null {
  if (typeof error !== 'object' || error === null) return null;
  const errors = (error as { errors?: unknown }).errors;
  return typeof errors === 'object' && errors !== null ? (errors as Record<string, string[]>) : null;
}

/** The machine-readable reason of an error body (docs/decisions/0030), or 'network' without one. */
export function reasonOf(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const body = error as { reason?: unknown; statusCode?: unknown; status?: unknown };
    if (typeof body.reason === 'string') return body.reason;
    const status = typeof body.statusCode === 'number' ? body.statusCode : typeof body.status === 'number' ? body.status : null;
    if (status === 400) return 'invalidInput';
    if (status === 429) return 'rateLimited';
    if (status !== null) return 'failed';
  }
  return 'network';
}
