import { rollConsole } from '../db/console-roll.js';
import { isDatabaseUnavailable } from '../db/database-errors.js';
import type { SqlQueryable } from '../db/sql.js';
import { createPeriodic } from './periodic.js';

/**
 * The loop that keeps the console's counts up with the events: `runOnce`
 * and a timer that calls it.
 *
 * @example
 * ```ts
 * const rollUp = createConsoleRollUp(db, {}, console.error);
 * rollUp.start();
 * ```
 */
export interface ConsoleRollUp {
  start(): void;
  /** Counts every event waiting, a batch per transaction; resolves to how many it counted (0 when another process was at it). */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/** Options of {@link createConsoleRollUp}. */
export interface ConsoleRollUpOptions {
  /** Most events one transaction counts; default 5,000. */
  readonly batchSize?: number | undefined;
  /** Time between two rounds when nothing waits, in ms; default 500. */
  readonly intervalMs?: number | undefined;
}

/**
 * Counts the events every `intervalMs`, batch after batch while full
 * batches come, so a write pays for its event and nothing more and a million
 * imported passes are counted in a few batches' time. Processes share the
 * work through the cursor's row lock: one counts while the others skip
 * their round.
 */
export function createConsoleRollUp(db: SqlQueryable, options: ConsoleRollUpOptions, onError: (error: unknown) => void): ConsoleRollUp {
  const batch = options.batchSize ?? 5000;
  const interval = options.intervalMs ?? 500;
  const runOnce = async (): Promise<number> => {
    let total = 0;
    // After stop(), a round under way ends after its current batch.
    while (!loop.halted) {
      const counted = await rollConsole(db, batch, false);
      if (counted <= 0) break;
      total += counted;
      if (counted < batch) break;
    }
    return total;
  };

  const loop = createPeriodic(runOnce, {
    firstMs: interval,
    intervalMs: interval,
    onError: (error) => {
      if (!isDatabaseUnavailable(error)) onError(error);
    },
  });

  return { start: loop.start, runOnce, stop: loop.stop };
}
