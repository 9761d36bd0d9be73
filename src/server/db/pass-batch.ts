// Group commit of new passes: the creates that arrive while one statement is
// being written go together in the next, each pass with its `pass.created`
// event and that event's deliveries, in one statement and one commit.
import { isDatabaseUnavailable } from './database-errors.js';
import type { SqlQueryable } from './sql.js';
import { insertPassesWithEvents, toPass, type InsertedPassRow, type NewPass, type PassRecord } from './passes.js';

export type { NewPass } from './passes.js';

/**
 * Inserts new passes in shared statements.
 *
 * @example
 * ```ts
 * const passes: PassBatch = createPassBatch(db, { onWritten: wakeWorkers });
 * const record = await passes.insert({ templateId: 1, templateVersion: 3, values, pass, event });
 * if (record === undefined) { … the one-by-one path: the template changed, or the serial number is taken … }
 * ```
 */
export interface PassBatch {
  /**
   * Resolves once the pass, its event and the event's deliveries are
   * committed (to the stored pass); or to `undefined`, with nothing
   * written, when its template is no longer at `templateVersion` (changed
   * or deleted), its serial number is taken, or the shared statement was
   * refused (a template deleted meanwhile): the caller then takes the
   * one-by-one path, which says which. Rejects when the database cannot be
   * reached (the pass may or may not have been committed, as with any lost
   * commit answer).
   */
  insert(item: NewPass): Promise<PassRecord | undefined>;
}

/** Options of {@link createPassBatch}. */
export interface PassBatchOptions {
  /** Called after each committed statement that queued deliveries (wakes the delivery workers). */
  readonly onWritten: () => void;
  /** Most passes one statement inserts; default 64. */
  readonly maxBatch?: number | undefined;
}

interface Waiting {
  readonly item: NewPass;
  readonly resolve: (record: PassRecord | undefined) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Makes the batch of one process. One statement is in flight at a time:
 * under load every commit carries many passes (the outbox's counter is
 * taken once per commit, not once per pass); when idle a pass is written at
 * once, alone. Two creates of one serial number never share a statement.
 *
 * @example
 * ```ts
 * const passes = createPassBatch(db, { onWritten: () => deliveries.wake(), maxBatch: 32 });
 * ```
 */
export function createPassBatch(db: SqlQueryable, options: PassBatchOptions): PassBatch {
  const maxBatch = options.maxBatch ?? 64;
  let queue: Waiting[] = [];
  let writing = false;

  const take = (): Waiting[] => {
    const keys = new Set<string>();
    const batch: Waiting[] = [];
    const rest: Waiting[] = [];
    for (const waiting of queue) {
      const key = `${waiting.item.pass.passTypeIdentifier}\u0000${waiting.item.pass.serialNumber}`;
      if (batch.length < maxBatch && !keys.has(key)) {
        keys.add(key);
        batch.push(waiting);
      } else rest.push(waiting);
    }
    queue = rest;
    return batch;
  };

  const write = async (batch: readonly Waiting[]): Promise<void> => {
    const items = batch.map((waiting) => waiting.item);
    let rows: InsertedPassRow[];
    try {
      rows = await insertPassesWithEvents(db, items);
    } catch (error) {
      // Lost on the way: the callers answer as for any lost commit. Refused (a template deleted under
      // the batch): nothing was written, and each goes the one-by-one way, which finds out why.
      // Unavailable (away, or a statement timed out on a locked table): the creates queued behind fail now
      // too, rather than each batch waiting its own timeout in turn.
      if (isDatabaseUnavailable(error)) for (const waiting of [...batch, ...queue.splice(0)]) waiting.reject(error);
      else for (const waiting of batch) waiting.resolve(undefined);
      return;
    }
    // No registration enabled: nothing queued for the workers, no need to wake them (nor the other processes).
    if ((rows[0]?.deliveries ?? 0) > 0) options.onWritten();
    const byIndex = new Map(rows.map((row) => [row.i, row]));
    batch.forEach((waiting, index) => {
      const row = byIndex.get(index + 1);
      waiting.resolve(row === undefined ? undefined : toPass({ ...row, template_version: waiting.item.templateVersion }));
    });
  };

  const run = async (): Promise<void> => {
    writing = true;
    try {
      while (queue.length > 0) await write(take());
    } finally {
      writing = false;
    }
  };

  return {
    insert(item) {
      return new Promise((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!writing) void run();
      });
    },
  };
}
