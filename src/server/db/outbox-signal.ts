// PostgreSQL LISTEN/NOTIFY between the processes that share one database: a
// commit that queued work in one process wakes the workers of every other at
// once, instead of at their next poll. (Within a process, and on PGlite,
// workers are woken in memory.)
import { notifyOutbox } from './outbox.js';
import { importPeer } from './pglite.js';
import { INSTANCE_PREFIX } from './queue.js';
import type { SqlQueryable } from './sql.js';

/** The channel every process listens on; the payload is the sender's instance id. */
export const OUTBOX_CHANNEL = 'passmint_outbox';

/**
 * This process's end of the signal.
 *
 * @example
 * ```ts
 * const signal: OutboxSignal = await createOutboxSignal({ connectionString, db, instanceId, onSignal: wakeWorkers });
 * signal.notify(); // after a commit that queued deliveries
 * ```
 */
export interface OutboxSignal {
  /** Tells the other processes that work was queued (coalesced: at most one NOTIFY in flight, and one more after it). */
  notify(): void;
  /** Stops listening. */
  close(): Promise<void>;
}

/** Options of {@link createOutboxSignal}. */
export interface OutboxSignalOptions {
  /** The PostgreSQL URL (a connection of its own listens). */
  readonly connectionString: string;
  /** Where NOTIFY is sent (the pool). */
  readonly db: SqlQueryable;
  /** This process's id: its own notifications are ignored. */
  readonly instanceId: string;
  /** Called for another process's notification, and after each (re)connection (work may have been queued meanwhile). */
  readonly onSignal: () => void;
  /** Longest wait between attempts to connect again, in ms; default 5000. */
  readonly maxRetryMs?: number | undefined;
}

interface ListenClient {
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string | undefined }) => void): unknown;
  on(event: 'error' | 'end', listener: () => void): unknown;
}

/**
 * Listens on {@link OUTBOX_CHANNEL} with a connection of its own, which is
 * opened again whenever it is lost (a database restart, a failover, a
 * terminated backend) after 0.1 s, then longer, up to `maxRetryMs`; the
 * workers' polling covers the time without it. A NOTIFY is sent after the
 * commit, not inside it: the transactions that queue work do not take
 * PostgreSQL's notification lock, and a lost NOTIFY costs one poll at most.
 *
 * @example
 * ```ts
 * const signal = await createOutboxSignal({ connectionString: process.env.DATABASE_URL!, db, instanceId: db.instanceId!, onSignal: () => worker.wake() });
 * ```
 */
export async function createOutboxSignal(options: OutboxSignalOptions): Promise<OutboxSignal> {
  const pg = await importPeer<typeof import('pg') & { default?: typeof import('pg') }>('pg');
  const { Client } = pg.default ?? pg;
  const maxRetryMs = options.maxRetryMs ?? 5000;
  let closed = false;
  let client: ListenClient | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;

  const listen = (): void => {
    timer = undefined;
    if (closed) return;
    const current = new Client({
      connectionString: options.connectionString,
      application_name: `${INSTANCE_PREFIX}${options.instanceId}`,
      keepAlive: true,
    }) as unknown as ListenClient;
    client = current;
    let lost = false;
    const retry = (): void => {
      if (lost || closed) return;
      lost = true;
      current.end().catch(() => undefined);
      timer = setTimeout(listen, Math.min(maxRetryMs, 100 * 2 ** failures++));
      timer.unref();
    };
    current.on('error', retry);
    current.on('end', retry);
    current.on('notification', (message) => {
      if (message.channel === OUTBOX_CHANNEL && message.payload !== options.instanceId) options.onSignal();
    });
    current
      .connect()
      .then(() => current.query(`LISTEN ${OUTBOX_CHANNEL}`))
      .then(() => {
        failures = 0;
        options.onSignal();
      }, retry);
  };
  listen();

  let sending = false;
  let again = false;
  const send = (): void => {
    if (closed) return;
    if (sending) {
      again = true;
      return;
    }
    sending = true;
    notifyOutbox(options.db, OUTBOX_CHANNEL, options.instanceId)
      .catch(() => undefined) // the others' polling covers a lost one
      .finally(() => {
        sending = false;
        if (again) {
          again = false;
          send();
        }
      });
  };

  return {
    notify: send,
    async close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      await client?.end().catch(() => undefined);
    },
  };
}
