/** A JSON-safe copy of a record, or null when it is not a record or cannot be stored as JSON. */
export function storableRecord<T extends object>(value: unknown): T | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  try {
    const copy = JSON.parse(JSON.stringify(value)) as unknown;
    return typeof copy === 'object' && copy !== null && !Array.isArray(copy) ? (copy as T) : null;
  } catch {
    // A cycle, a BigInt …: "a failure while storing resets to null" (spec §4).
    return null;
  }
}

/** A JSON-safe copy of any value, or null when it cannot be stored as JSON. */
export function storableValue<T>(value: unknown): T | null {
  if (value === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(value)) as T;
  } catch {
    return null;
  }
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
