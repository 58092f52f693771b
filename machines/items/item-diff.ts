/**
 * The differences between two versions of an item's content (docs/decisions/0123), as paths
 * into the JSON: `variants.hi.stem`, `options[2].keepLast`, `marking.wrong`. Objects are
 * compared key by key, arrays index by index; a value present on one side only is added or
 * removed. Pure, so the client can show the same diff it gets from the server.
 */
export interface ContentChange {
  path: string;
  change: 'added' | 'removed' | 'changed';
  before: unknown;
  after: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

function walk(before: unknown, after: unknown, path: string, out: ContentChange[]) {
  if (Object.is(before, after)) return;
  if (before === undefined) {
    out.push({ path, change: 'added', before: null, after });
    return;
  }
  if (after === undefined) {
    out.push({ path, change: 'removed', before, after: null });
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    for (let i = 0; i < Math.max(before.length, after.length); i += 1) walk(before[i], after[i], join(path, i), out);
    return;
  }
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys) walk(before[key], after[key], join(path, key), out);
    return;
  }
  out.push({ path, change: 'changed', before, after });
}

export function diffContent(before: unknown, after: unknown): ContentChange[] {
  const out: ContentChange[] = [];
  walk(before, after, '', out);
  return out;
}
