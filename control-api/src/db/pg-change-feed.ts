/**
 * The read cache on PostgreSQL, where several API processes (and builders, and ops commands) write:
 *
 * - Every commit that changes a cached table sends a notification (`pg_notify` from a statement
 *   trigger, `2026_11_27_0900_change_notifications`), and each process listens on one connection of
 *   its own and moves the table's generation when it arrives: answers cached before are read again.
 * - This process's own writes move their tables as soon as their statement (outside a transaction) or
 *   their transaction's commit returns, so a request never reads an answer older than what an earlier
 *   request of this process wrote, without waiting for the notification.
 * - Nothing is cached while the listening connection is not up (starting, lost, reconnecting), for a
 *   table without the trigger, or when a heartbeat sent through the channel every few seconds does not
 *   come back: a notification that may have been missed can never leave an answer cached.
 *
 * So an answer is at most one notification's delivery (a few milliseconds on one network) older than
 * another process's commit. The listening connection opens on the first cached read, so processes that
 * never read through the cache (builders, most ops commands) hold no extra connection.
 */
import type pg from 'pg';
import { createChangeCheckedCache, createTableChanges, writesOfStatement, type ReadCache, type TStatementWrites } from './read-cache.ts';

/** The channel the triggers notify on; each payload is `{schema}.{table}`. */
export const CHANGE_CHANNEL = 'dropsite_changes';
/** The name of the trigger (and its function) on every table whose answers may be cached. */
export const CHANGE_TRIGGER = 'dropsite_notify_change';

const HEARTBEAT_PREFIX = '~heartbeat.';

export interface TPostgresChangeFeed {
  cache: ReadCache;
  /** Follows a pooled connection's statements, so this process's committed writes count at once. */
  watch(client: pg.ClientBase): void;
  /** Resolves once the listening connection is up (opening it if no read has yet); for tests and start-up. */
  listening(): Promise<void>;
  close(): Promise<void>;
}

export interface TChangeFeedOptions {
  /** A new connected client with the pool's settings (schema included), used only to listen. */
  connect(): Promise<pg.Client>;
  /** How often a heartbeat goes round the channel; one not back by the next is a lost connection. */
  heartbeatMs?: number;
  /** The wait before listening again after the connection was lost. */
  reconnectMs?: number;
  onError?(err: unknown): void;
}

type TListener =
  | { state: 'idle' }
  | { state: 'connecting'; ready: Promise<void> }
  | { state: 'listening'; client: pg.Client; schema: string; tables: ReadonlySet<string>; heartbeat: NodeJS.Timeout; sentBeat: number | null; beat: number }
  | { state: 'waiting'; timer: NodeJS.Timeout }
  | { state: 'closed' };

export function createPostgresChangeFeed(options: TChangeFeedOptions): TPostgresChangeFeed {
  const heartbeatMs = options.heartbeatMs ?? 5_000;
  const reconnectMs = options.reconnectMs ?? 1_000;
  const changes = createTableChanges();
  const watched = new WeakSet<pg.ClientBase>();
  let listener: TListener = { state: 'idle' };

  // Nothing is cached unless listening (an answer loaded meanwhile is not kept); listening again moves
  // every generation, so nothing cached before the connection was lost is reused.
  const version = (tables: readonly string[]): number | null => {
    if (listener.state !== 'listening') {
      if (listener.state === 'idle') void listen();
      return null;
    }
    for (const table of tables) if (!listener.tables.has(table)) return null;
    return 0;
  };

  /** Listens again after the reconnect wait. */
  const retryLater = (): void => {
    const timer = setTimeout(() => {
      if (listener.state === 'waiting') void listen();
    }, reconnectMs);
    timer.unref();
    listener = { state: 'waiting', timer };
  };

  const lose = (client: pg.Client, err: unknown): void => {
    if (listener.state !== 'listening' || listener.client !== client) return;
    clearInterval(listener.heartbeat);
    options.onError?.(err);
    client.removeAllListeners('notification');
    void client.end().catch(() => {});
    retryLater();
  };

  const listen = (): Promise<void> => {
    if (listener.state === 'connecting') return listener.ready;
    if (listener.state === 'listening' || listener.state === 'closed') return Promise.resolve();
    const ready = (async () => {
      let client: pg.Client | undefined;
      try {
        client = await options.connect();
        const connected = client;
        connected.on('error', (err) => lose(connected, err));
        connected.on('end', () => lose(connected, new Error('the listening connection ended')));
        connected.on('notification', (message) => {
          if (listener.state !== 'listening' || listener.client !== connected || message.channel !== CHANGE_CHANNEL) return;
          const payload = message.payload ?? '';
          if (payload.startsWith(HEARTBEAT_PREFIX)) {
            if (Number(payload.slice(HEARTBEAT_PREFIX.length)) === listener.sentBeat) listener.sentBeat = null;
            return;
          }
          const dot = payload.indexOf('.');
          if (payload.slice(0, dot) === listener.schema) changes.bump(payload.slice(dot + 1));
        });
        await connected.query(`listen ${CHANGE_CHANNEL}`);
        const { rows } = await connected.query<{ schema: string; tables: string[] }>(
          `select current_schema() as schema,
             array(select distinct event_object_table::text from information_schema.triggers
                   where trigger_schema = current_schema() and trigger_name = $1) as tables`,
          [CHANGE_TRIGGER],
        );
        if ((listener.state as TListener['state']) === 'closed') {
          await connected.end();
          return;
        }
        const heartbeat = setInterval(() => {
          if (listener.state !== 'listening' || listener.client !== connected) return;
          if (listener.sentBeat !== null) return lose(connected, new Error('a heartbeat did not come back through the listening connection'));
          const beat = ++listener.beat;
          listener.sentBeat = beat;
          connected.query('select pg_notify($1, $2)', [CHANGE_CHANNEL, `${HEARTBEAT_PREFIX}${beat}`]).catch((err: unknown) => lose(connected, err));
        }, heartbeatMs);
        heartbeat.unref();
        // Whatever was cached before may have missed notifications: none of it is reused.
        changes.bumpEverything();
        listener = { state: 'listening', client: connected, schema: rows[0]?.schema ?? '', tables: new Set(rows[0]?.tables ?? []), heartbeat, sentBeat: null, beat: 0 };
      } catch (err) {
        options.onError?.(err);
        void client?.end().catch(() => {});
        if ((listener.state as TListener['state']) === 'closed') return;
        retryLater();
      }
    })();
    listener = { state: 'connecting', ready };
    return ready;
  };

  return {
    cache: createChangeCheckedCache(changes, version),
    watch(client) {
      if (watched.has(client)) return;
      watched.add(client);
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      /** Writes of the open transaction, counted when it commits (null outside a transaction). */
      let pending: TStatementWrites[] | null = null;
      const settle = (text: string): void => {
        if (/^\s*(begin|start\s+transaction)\b/i.test(text)) pending = [];
        else if (/^\s*(commit|end)\b/i.test(text)) {
          for (const writes of pending ?? []) changes.note(writes);
          pending = null;
        } else if (/^\s*rollback\s*;?\s*$/i.test(text)) pending = null;
        else {
          const writes = writesOfStatement(text);
          if (writes.kind === 'none') return;
          if (pending === null) changes.note(writes);
          else pending.push(writes);
        }
      };
      client.query = ((...args: unknown[]) => {
        const first = args[0];
        const text = typeof first === 'string' ? first : typeof first === 'object' && first !== null && 'text' in first && typeof first.text === 'string' ? first.text : undefined;
        const result = query(...args);
        if (text === undefined || !(result instanceof Promise)) {
          // A callback or a submittable: when it ends is not seen here, so it counts as a change now.
          changes.bumpEverything();
          return result;
        }
        return result.then(
          (value: unknown) => {
            settle(text);
            return value;
          },
          (err: unknown) => {
            // A failed statement in a transaction fails the transaction; outside one it changed nothing
            // or, when unclear, everything read again is only slower. A failed commit or rollback ends
            // the transaction all the same (the server rolls it back).
            if (pending === null) changes.note(writesOfStatement(text));
            else if (/^\s*(commit|end|rollback)\s*;?\s*$/i.test(text)) pending = null;
            throw err;
          },
        );
      }) as typeof client.query;
    },
    listening: () => listen(),
    async close() {
      const current = listener;
      listener = { state: 'closed' };
      if (current.state === 'connecting') await current.ready;
      // A connection the pending listen opened meanwhile is ended by it (it sees the closed state).
      if (current.state === 'listening') {
        clearInterval(current.heartbeat);
        await current.client.end().catch(() => {});
      }
      if (current.state === 'waiting') clearTimeout(current.timer);
    },
  };
}
