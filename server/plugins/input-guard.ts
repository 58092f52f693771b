import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ValidationFailure } from '#server/lib/errors.ts';

/**
 * The one guard every request passes before its route schema (SECURITY.md "Input and files",
 * issue 23). JSON and query strings can carry values that a schema of `type: string` or
 * `type: number` accepts but that break what comes after it:
 * - a NUL byte, which PostgreSQL refuses in text (a 500, or a reset mid-export);
 * - a lone UTF-16 surrogate, which cannot be encoded as UTF-8 for the database;
 * - `1e309`, which JSON.parse turns into Infinity;
 * - `__proto__` / `constructor` / `prototype` keys, which pollute objects merged later;
 * - nesting deep enough to exhaust the stack of whatever walks it recursively.
 * Checking here, once, covers every route including those added later; the route schemas
 * then only describe shapes.
 */

export const MAX_INPUT_DEPTH = 32;
/** With the `u` flag a surrogate range matches only halves that are not part of a pair. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const POLLUTING_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Why a value is refused, or undefined when it is fine. Iterative: deep input cannot overflow the stack here. */
export function findBadInput(root: unknown): { path: string; message: string } | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: root, path: '', depth: 0 }];
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { path, message: 'must not contain NUL characters.' };
      if (LONE_SURROGATE.test(value)) return { path, message: 'must be valid Unicode text.' };
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { path, message: 'must be a finite number.' };
    } else if (value !== null && typeof value === 'object') {
      if (depth >= MAX_INPUT_DEPTH) return { path, message: `is nested too deeply (at most ${MAX_INPUT_DEPTH} levels).` };
      if (Array.isArray(value)) {
        value.forEach((item, index) => stack.push({ value: item, path: `${path}[${index}]`, depth: depth + 1 }));
      } else {
        // Own keys including a literal "__proto__" that JSON.parse may have created.
        for (const key of Object.keys(value)) {
          const keyPath = path ? `${path}.${key}` : key;
          if (POLLUTING_KEYS.has(key)) return { path: keyPath, message: 'is not an accepted field name.' };
          if (key.includes('\u0000') || LONE_SURROGATE.test(key)) return { path: path || 'body', message: 'has a field name that is not valid text.' };
          stack.push({ value: (value as Record<string, unknown>)[key], path: keyPath, depth: depth + 1 });
        }
      }
    }
  }
  return undefined;
}

function check(part: 'body' | 'query' | 'params', value: unknown) {
  const bad = findBadInput(value);
  if (!bad) return;
  const field = bad.path.replace(/^\[/, `${part}[`) || part;
  throw ValidationFailure.field(field, `${field} ${bad.message}`);
}

export const inputGuardPlugin = fp(
  async function inputGuard(app: FastifyInstance) {
    // preValidation: after the body is parsed, before rate limits count it and before the schema.
    app.addHook('preValidation', async (request: FastifyRequest) => {
      check('params', request.params);
      check('query', request.query);
      if (request.body !== undefined && !request.isMultipart()) check('body', request.body);
    });
    // Ajv coerces a query "1e309" to Infinity without checking the coerced value again
    // (strictNumbers only sees the string), so the coerced query and params are checked once more.
    app.addHook('preHandler', async (request: FastifyRequest) => {
      check('params', request.params);
      check('query', request.query);
    });
  },
  { name: 'input-guard' },
);
