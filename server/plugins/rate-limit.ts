import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '#server/db/client.ts';
import type { Clock } from '#server/lib/clock.ts';
import { AppError } from '#server/lib/errors.ts';
import { needsCheck } from './access.ts';

/**
 * One limit: at most `max` requests per fixed window of `windowSeconds` for each value of the
 * key. The key is the client's IP unless `key` picks something else (an e-mail of the body);
 * requests for which `key` returns undefined are not counted by that rule. Rules with the
 * same `scope` share counters across routes (every mail-sending route counts against one
 * per-address budget).
 */
export interface RateLimitRule {
  name: string;
  max: number;
  windowSeconds: number;
  key?: (request: FastifyRequest) => string | undefined;
  scope?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Limits of this route; public /api routes without any get `defaultPublicRateLimit`. */
    rateLimit?: readonly RateLimitRule[];
  }
  interface FastifyInstance {
    /** The limits in force per route (`METHOD url`), for tests and the route matrix. */
    rateLimits: Map<string, readonly RateLimitRule[]>;
  }
}

/** SECURITY.md: every unauthenticated route is limited. 300 a minute per address unless the route says less. */
export const defaultPublicRateLimit: readonly RateLimitRule[] = [{ name: 'ip', max: 300, windowSeconds: 60 }];

export const rateLimitMessage = (seconds: number) => `Too many requests. Please try again in ${seconds} seconds.`;

/** Counters older than their window are deleted at most this often per instance. */
const SWEEP_EVERY_MS = 60_000;

interface Hit {
  bucket: string;
  windowStart: Date;
  expiresAt: Date;
  rule: RateLimitRule;
}

/**
 * Fixed-window counters in the `rate_limit_counters` table, so every instance sharing the
 * database counts together (ARCHITECTURE.md "Scale-out"). One statement per request
 * increments every rule's counter; a rule over its limit answers 429 with Retry-After
 * (the seconds until its window ends) in the spec's error body.
 */
export const rateLimitPlugin = fp(async function rateLimit(app: FastifyInstance, options: { db: Db; clock: Clock }) {
  const { db, clock } = options;
  app.decorate('rateLimits', new Map());
  let lastSweep = 0;

  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
    const config = route.config ?? {};
    const rules = config.rateLimit ?? (config.access === 'public' && needsCheck(route.url) ? defaultPublicRateLimit : undefined);
    if (!rules?.length) return;
    for (const method of methods) app.rateLimits.set(`${method} ${route.url}`, rules);
  });

  function sweep(now: Date) {
    if (now.getTime() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now.getTime();
    db.query(`delete from rate_limit_counters where expires_at < $1`, [now]).catch((error) => app.log.warn({ err: error }, 'rate-limit sweep failed'));
  }

  app.addHook('preValidation', async (request) => {
    const routeKey = `${request.method} ${request.routeOptions.url}`;
    const rules = app.rateLimits.get(routeKey);
    if (!rules) return;
    const now = clock.now();
    const hits: Hit[] = [];
    for (const rule of rules) {
      const value = rule.key ? rule.key(request) : request.ip;
      if (value === undefined) continue;
      const windowMs = rule.windowSeconds * 1000;
      const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
      const bucket = createHash('sha256')
        .update(`${rule.scope ?? routeKey}\u0000${rule.name}\u0000${value}`)
        .digest('base64url');
      hits.push({ bucket, windowStart, expiresAt: new Date(windowStart.getTime() + windowMs), rule });
    }
    if (!hits.length) return;
    const { rows } = await db.query<{ bucket: string; windowStart: Date; hits: number }>(
      `insert into rate_limit_counters as c (bucket, window_start, hits, expires_at)
       select b, w, 1, e from unnest($1::text[], $2::timestamptz[], $3::timestamptz[]) as t(b, w, e)
       on conflict (bucket, window_start) do update set hits = c.hits + 1
       returning bucket, window_start as "windowStart", hits`,
      [hits.map((h) => h.bucket), hits.map((h) => h.windowStart.toISOString()), hits.map((h) => h.expiresAt.toISOString())],
    );
    sweep(now);
    let retryAfter = 0;
    for (const hit of hits) {
      const counted = rows.find((r) => r.bucket === hit.bucket && r.windowStart.getTime() === hit.windowStart.getTime());
      if (counted && counted.hits > hit.rule.max) {
        retryAfter = Math.max(retryAfter, Math.ceil((hit.expiresAt.getTime() - now.getTime()) / 1000));
      }
    }
    if (retryAfter > 0) {
      throw new AppError(429, rateLimitMessage(retryAfter), {
        headers: { 'retry-after': String(retryAfter) },
        extra: { reason: 'rateLimited', retryAfterSeconds: retryAfter },
      });
    }
  });
});
