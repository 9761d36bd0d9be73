// How many statements may use the database at once, and how long and how
// many others may wait for their turn: past either bound a statement fails
// at once with a DatabaseBusyError (answered 503 database-unavailable), so
// a slow or locked database never piles requests up in the process.
import { DatabaseBusyError } from './database-errors.js';

/** The bounds of a {@link ConnectionGate}. */
export interface ConnectionGateOptions {
  /** Statements (or transactions) at once: the pool's connections (PostgreSQL), 1 (PGlite). */
  readonly permits: number;
  /** Longest wait for a turn, in ms; `undefined`: no bound. 0: no wait (fails at once when every turn is taken). */
  readonly waitMs?: number | undefined;
  /** Most statements waiting at once; one more fails at once. `undefined`: no bound. */
  readonly maxWaiting?: number | undefined;
}

/** A counted gate in front of the database. */
export interface ConnectionGate {
  /** Runs `work` when a turn is free (at once, or after waiting); a {@link DatabaseBusyError} past the bounds. */
  run<TResult>(work: () => Promise<TResult>): Promise<TResult>;
  /** Statements waiting now (for `GET /metrics`). */
  readonly waiting: number;
}

interface Waiter {
  readonly resolve: () => void;
  timer: ReturnType<typeof setTimeout> | undefined;
  gone: boolean;
}

/**
 * Makes a gate: first come, first served; a waiter whose time runs out
 * leaves the line and never runs.
 *
 * @example
 * ```ts
 * const gate = createConnectionGate({ permits: 10, waitMs: 1000, maxWaiting: 256 });
 * const rows = await gate.run(() => pool.query('select 1'));
 * ```
 */
export function createConnectionGate(options: ConnectionGateOptions): ConnectionGate {
  const { waitMs, maxWaiting } = options;
  let free = options.permits;
  let waiting = 0;
  const line: Waiter[] = [];
  let head = 0;

  const release = (): void => {
    while (head < line.length) {
      const next = line[head++]!;
      if (next.gone) continue;
      if (next.timer !== undefined) clearTimeout(next.timer);
      waiting--;
      compact();
      next.resolve(); // the turn passes straight to the waiter
      return;
    }
    compact();
    free++;
  };
  const compact = (): void => {
    if (head > 1024 && head * 2 > line.length) {
      line.splice(0, head);
      head = 0;
    }
  };

  const turn = (): Promise<void> | undefined => {
    if (free > 0) {
      free--;
      return undefined;
    }
    if (waitMs === 0 || (maxWaiting !== undefined && waiting >= maxWaiting)) {
      throw new DatabaseBusyError(`every database connection is busy and ${waiting} statements wait already`);
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, timer: undefined, gone: false };
      if (waitMs !== undefined) {
        waiter.timer = setTimeout(() => {
          waiter.gone = true;
          waiting--;
          reject(new DatabaseBusyError(`no database connection was free within ${waitMs} ms`));
        }, waitMs);
      }
      line.push(waiter);
      waiting++;
    });
  };

  return {
    async run(work) {
      const wait = turn();
      if (wait !== undefined) await wait;
      try {
        return await work();
      } finally {
        release();
      }
    },
    get waiting() {
      return waiting;
    },
  };
}
