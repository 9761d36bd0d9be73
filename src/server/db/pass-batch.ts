// Group commit of new passes: the creates that arrive while one statement is
// being written go together in the next, each pass with its `pass.created`
// event and that event's deliveries, in one statement and one commit.
import type { JsonObject, Pass } from '../../types.js';
import type { WebhookEvent } from '../../webhooks/event-types.js';
import { isDatabaseUnavailable } from './database-errors.js';
import type { SqlQueryable } from './sql.js';
import { toPass, type PassRecord, type PassRow } from './passes.js';

/**
 * A pass to insert, rendered from `templateVersion` of its template, with
 * the event that announces it.
 */
export interface NewPass {
  readonly templateId: number;
  readonly templateVersion: number;
  readonly values: JsonObject;
  readonly pass: Pass;
  readonly event: WebhookEvent;
}

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

interface InsertedRow extends PassRow {
  i: number;
  /** Deliveries the statement queued (the same on every row). */
  deliveries: number;
}

/**
 * One statement: the passes whose template is still at the version they were
 * rendered from (and whose serial number is free), then one counter bump for
 * their events (numbered in the batch's order, so the outbox's order holds),
 * the events, and a pending delivery per event and enabled registration.
 */
const INSERT_PASSES = `with input as (
     select * from unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::text[], $6::text[], $7::uuid[], $8::text[]) with ordinality
       as x(type, serial, template_id, template_version, vals, pass, event_id, event_body, i)),
   inserted as (
     insert into passmint_passes (pass_type_identifier, serial_number, template_id, pass_values, pass)
     select x.type, x.serial, x.template_id, x.vals::json, x.pass::json from input x
      where exists (select 1 from passmint_templates t where t.id = x.template_id and t.version = x.template_version)
      order by x.i
     on conflict (pass_type_identifier, serial_number) do nothing
     returning pass_type_identifier, serial_number, template_id, pass_values, pass, version, created_at, updated_at, seq),
   made as (
     select x.i, x.event_id, x.event_body, row_number() over (order by x.i) as n, count(*) over () as total
       from inserted p join input x on x.type = p.pass_type_identifier and x.serial = p.serial_number),
   counter as (
     update passmint_counters set value = value + (select count(*) from made)
      where name = 'event' and exists (select 1 from made) returning value),
   event as (
     insert into passmint_events (seq, id, type, body)
     select counter.value - made.total + made.n, made.event_id, 'pass.created', made.event_body from made cross join counter
      order by made.n
     returning seq),
   delivery as (
     insert into passmint_deliveries (event_seq, webhook_id, status)
     select event.seq, webhook.id, 'pending' from event cross join passmint_webhooks webhook where webhook.state = 'enabled'
     returning 1)
 select x.i::int as i, (select count(*) from delivery)::int as deliveries, p.*
   from inserted p join input x on x.type = p.pass_type_identifier and x.serial = p.serial_number`;

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
    let rows: InsertedRow[];
    try {
      rows = await db.query<InsertedRow>(INSERT_PASSES, [
        items.map((item) => item.pass.passTypeIdentifier),
        items.map((item) => item.pass.serialNumber),
        items.map((item) => item.templateId),
        items.map((item) => item.templateVersion),
        items.map((item) => JSON.stringify(item.values)),
        items.map((item) => JSON.stringify(item.pass)),
        items.map((item) => item.event.id),
        items.map((item) => JSON.stringify(item.event)),
      ]);
    } catch (error) {
      // Lost on the way: the callers answer as for any lost commit. Refused (a template deleted under
      // the batch): nothing was written, and each goes the one-by-one way, which finds out why.
      if (isDatabaseUnavailable(error)) for (const waiting of batch) waiting.reject(error);
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
