import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';

/**
 * The one database handle every repository takes. Two implementations speak the same
 * PostgreSQL dialect: embedded PGlite (default) and a real server through `pg`
 * (docs/decisions/0002-sql-without-an-orm.md).
 */
export interface QueryOptions {
  /**
   * Keep this statement prepared on each PostgreSQL connection (parsed and planned once, not on
   * every call). Only for SQL whose text comes in a bounded number of variants: values go in
   * parameters, never in the text. PGlite ignores it.
   */
  prepare?: boolean;
  /** A fixed statement name instead of one derived from the text (implies `prepare`). */
  name?: string;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<QueryResult<T>>;
  /** Runs a script of several statements without parameters (migrations, seeds). */
  exec(sql: string): Promise<void>;
}

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface ListenOptions {
  /**
   * Also hear the notifications of this handle's own commits before the commit returns, not
   * only when the listening connection reads them a moment later. Caches that must never serve
   * a row this instance has just changed need it (docs/decisions/0291). The handler may then be
   * told the same payload twice.
   */
  ownCommitsFirst?: boolean;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction; rolls back when it throws. */
  transaction<R>(fn: (tx: Queryable) => Promise<R>): Promise<R>;
  /** Subscribes to NOTIFY on a channel; resolves to an unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void, options?: ListenOptions): Promise<() => Promise<void>>;
  /**
   * Told `false` when notifications may have been missed (the LISTEN connection dropped) and
   * `true` once every channel is listened to again; caches kept fresh by NOTIFY depend on it.
   * Returns an unsubscribe function.
   */
  onListenState?(handler: (listening: boolean) => void): () => void;
  close(): Promise<void>;
  /** PGlite only: the whole data directory as a tarball (tests clone a migrated template). */
  dumpDataDir?(): Promise<Blob>;
}

// int8 (counts, sums) as JS numbers, like PGlite does; values beyond 2^53 are not used here.
pg.types.setTypeParser(20, (value: string) => Number(value));

export interface OpenDbOptions {
  databaseUrl?: string;
  /** PGlite data directory; `undefined` or 'memory://' keeps it in memory. */
  dataDir?: string;
  /** A dumped PGlite data directory to start from (tests clone a migrated template). */
  loadDataDir?: Blob;
  poolSize?: number;
}

export async function openDb(options: OpenDbOptions): Promise<Db> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return openPglite(options.dataDir, options.loadDataDir);
}

async function openPglite(dataDir: string | undefined, loadDataDir: Blob | undefined): Promise<Db> {
  if (dataDir && !dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const lite = await PGlite.create(dataDir, { extensions: { pg_trgm }, loadDataDir });
  const normalise = <T>(r: { rows: T[]; affectedRows?: number }): QueryResult<T> => ({
    rows: r.rows,
    rowCount: r.affectedRows ?? r.rows.length,
  });
  return {
    kind: 'pglite',
    async query<T>(sql: string, params: readonly unknown[] = []) {
      return normalise(await lite.query<T>(sql, params as unknown[]));
    },
    async transaction<R>(fn: (tx: Queryable) => Promise<R>) {
      return lite.transaction(async (tx) =>
        fn({
          async query<T>(sql: string, params: readonly unknown[] = []) {
            return normalise(await tx.query<T>(sql, params as unknown[]));
          },
          async exec(sql: string) {
            await tx.exec(sql);
          },
        }),
      );
    },
    async exec(sql: string) {
      await lite.exec(sql);
    },
    async listen(channel, onPayload) {
      const unsubscribe = await lite.listen(channel, onPayload);
      return async () => unsubscribe();
    },
    // In-process: notifications cannot be lost in transit.
    onListenState() {
      return () => {};
    },
    async close() {
      if (!lite.closed) await lite.close();
    },
    async dumpDataDir() {
      return lite.dumpDataDir('none');
    },
  };
}

/** More distinct prepared texts than this means the caller's text is not bounded: stop preparing. */
const MAX_PREPARED_TEXTS = 500;

/**
 * Names of prepared statements by their text. pg keeps a named statement per connection and
 * refuses one name for two texts, so the name is a digest of the text.
 */
function statementNamer() {
  const names = new Map<string, string>();
  return (sql: string, options: QueryOptions | undefined): string | undefined => {
    if (!options?.prepare && !options?.name) return undefined;
    if (options.name) return options.name;
    let name = names.get(sql);
    if (!name && names.size < MAX_PREPARED_TEXTS) {
      name = `p_${createHash('sha1').update(sql).digest('base64url')}`;
      names.set(sql, name);
    }
    return name;
  };
}

async function openPostgres(connectionString: string, max: number): Promise<Db> {
  const statementName = statementNamer();
  const config = (sql: string, params: readonly unknown[], options: QueryOptions | undefined): pg.QueryConfig => ({
    text: sql,
    values: params as unknown[],
    name: statementName(sql, options),
  });
  const pool = new pg.Pool({ connectionString, max });
  // An idle client failing (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  await pool.query('select 1');
  let listener: Promise<pg.Client> | undefined;
  let closed = false;
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const stateHandlers = new Set<(listening: boolean) => void>();
  const tellState = (listening: boolean) => {
    for (const handler of stateHandlers) handler(listening);
  };

  // One connection carries every LISTEN. When it drops (server restart, network), it is
  // re-opened after a second and every channel is listened to again.
  function listenerClient(): Promise<pg.Client> {
    if (listener) return listener;
    const connecting = (async () => {
      const client = new pg.Client({ connectionString });
      const lost = () => {
        if (listener !== connecting) return;
        listener = undefined;
        tellState(false);
        client.end().catch(() => {});
        if (!closed && handlers.size) setTimeout(() => void listenerClient().catch(() => {}), 1000).unref();
      };
      client.on('error', lost);
      client.on('end', lost);
      client.on('notification', (msg) => {
        for (const handler of handlers.get(msg.channel) ?? []) handler(msg.payload ?? '');
      });
      await client.connect();
      for (const channel of handlers.keys()) await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      // Channels added while this connection was being opened are listened to by their caller.
      if (handlers.size) tellState(true);
      return client;
    })();
    listener = connecting;
    connecting.catch(() => {
      if (listener === connecting) listener = undefined;
      if (!closed && handlers.size) setTimeout(() => void listenerClient().catch(() => {}), 1000).unref();
    });
    return connecting;
  }

  // Channels whose handlers asked to hear this instance's own commits first. PostgreSQL tells a
  // listening session of its own NOTIFY before it answers the COMMIT, so every pool connection
  // that LISTENs to them runs their handlers before the caller's commit resolves.
  const ownCommitHandlers = new Map<string, Set<(payload: string) => void>>();
  let ownCommitChannelsVersion = 0;
  const clientChannelsVersion = new WeakMap<pg.PoolClient, number>();
  async function checkout(): Promise<pg.PoolClient> {
    const client = await pool.connect();
    const version = clientChannelsVersion.get(client);
    if (version === ownCommitChannelsVersion) return client;
    if (version === undefined) {
      client.on('notification', (msg) => {
        for (const handler of ownCommitHandlers.get(msg.channel) ?? []) handler(msg.payload ?? '');
      });
    }
    clientChannelsVersion.set(client, ownCommitChannelsVersion);
    // Queued ahead of the caller's statement on the same connection, so not awaited here.
    for (const channel of ownCommitHandlers.keys()) {
      client.query(`listen ${pg.escapeIdentifier(channel)}`).catch(() => clientChannelsVersion.set(client, -1));
    }
    return client;
  }

  /** One statement on a checked-out connection, as pg's own pool.query: one that failed is not reused. */
  async function onOneConnection<R>(run: (client: pg.PoolClient) => Promise<R>): Promise<R> {
    const client = await checkout();
    try {
      const result = await run(client);
      client.release();
      return result;
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  }

  return {
    kind: 'postgres',
    async query<T>(sql: string, params: readonly unknown[] = [], options?: QueryOptions) {
      const r = await onOneConnection((client) => client.query(config(sql, params, options)));
      return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
    },
    async transaction<R>(fn: (tx: Queryable) => Promise<R>) {
      const client = await checkout();
      try {
        await client.query('begin');
        const result = await fn({
          async query<T>(sql: string, params: readonly unknown[] = [], options?: QueryOptions) {
            const r = await client.query(config(sql, params, options));
            return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
          },
          async exec(sql: string) {
            await client.query(sql);
          },
        });
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async exec(sql: string) {
      await onOneConnection((client) => client.query(sql));
    },
    async listen(channel, onPayload, options) {
      let own: Set<(payload: string) => void> | undefined;
      if (options?.ownCommitsFirst) {
        own = ownCommitHandlers.get(channel);
        if (!own) {
          own = new Set();
          ownCommitHandlers.set(channel, own);
          ownCommitChannelsVersion += 1;
        }
        own.add(onPayload);
      }
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        const client = await listenerClient();
        // A fresh connection listens to every known channel itself.
        await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      }
      set.add(onPayload);
      return async () => {
        set.delete(onPayload);
        own?.delete(onPayload);
      };
    },
    onListenState(handler) {
      stateHandlers.add(handler);
      return () => stateHandlers.delete(handler);
    },
    async close() {
      closed = true;
      tellState(false);
      const client = await listener?.catch(() => undefined);
      listener = undefined;
      await client?.end().catch(() => {});
      await pool.end();
    },
  };
}
