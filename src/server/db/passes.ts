// Passes as rows.
import type { JsonObject, Pass } from '../../types.js';
import type { WebhookEvent } from '../../webhooks/event-types.js';
import { keysetPage, type PageQuery } from '../http/paging.js';
import type { SqlQueryable } from './sql.js';

/** A pass as stored. */
export interface PassRecord {
  readonly passTypeIdentifier: string;
  readonly serialNumber: string;
  readonly templateId: number;
  readonly values: JsonObject;
  readonly pass: Pass;
  readonly version: number;
  readonly created: Date;
  readonly updated: Date;
  readonly seq: number;
  /** The version of its template when read (by {@link findPass}); lets a cached package be found without reading the template. */
  readonly templateVersion?: number | undefined;
  /** The template version the pass was last rendered from (`null`: made before versions were recorded). */
  readonly renderedVersion: number | null;
  /** `active`, `voided` (final: its values never change again) or `expired`. */
  readonly state: PassState;
  /** The id of its public share page (`/p/{shareId}`): 128 random bits, base64url. */
  readonly shareId: string;
}

/** A pass's lifecycle state. */
export type PassState = 'active' | 'voided' | 'expired';

/** A row of passmint_passes as queries return it (`passColumns`, and the template's version where joined). */
export interface PassRow {
  pass_type_identifier: string;
  serial_number: string;
  template_id: number;
  pass_values: JsonObject;
  pass: Pass;
  version: number;
  created_at: Date;
  updated_at: Date;
  seq: number;
  template_version?: number | null;
  rendered_version: number | null;
  state: PassState;
  share_id: string;
}

const passColumns =
  'pass_type_identifier, serial_number, template_id, pass_values, pass, version, created_at, updated_at, seq, rendered_version, state, share_id';

/** A pass row as the record the service uses. */
export const toPass = (row: PassRow): PassRecord => ({
  passTypeIdentifier: row.pass_type_identifier,
  serialNumber: row.serial_number,
  templateId: row.template_id,
  values: row.pass_values,
  pass: row.pass,
  version: row.version,
  created: row.created_at,
  updated: row.updated_at,
  seq: row.seq,
  renderedVersion: row.rendered_version,
  state: row.state,
  shareId: row.share_id,
  ...(row.template_version === undefined || row.template_version === null ? {} : { templateVersion: row.template_version }),
});

/** Inserts a pass; `undefined` when one with its serial number already exists. */
export async function insertPass(sql: SqlQueryable, templateId: number, values: JsonObject, pass: Pass): Promise<PassRecord | undefined> {
  const rows = await sql.query<PassRow>(
    `insert into passmint_passes (pass_type_identifier, serial_number, template_id, pass_values, pass, rendered_version)
     values ($1, $2, $3, $4::json, $5::json, (select t.version from passmint_templates t where t.id = $3))
     on conflict (pass_type_identifier, serial_number) do nothing
     returning ${passColumns}`,
    [pass.passTypeIdentifier, pass.serialNumber, templateId, JSON.stringify(values), JSON.stringify(pass)],
  );
  return rows[0] === undefined ? undefined : toPass(rows[0]);
}

/** A pass by its type and serial number (with `lock`, locked for update to the end of the transaction), or `undefined`. */
export async function findPass(sql: SqlQueryable, passTypeIdentifier: string, serialNumber: string, lock = false): Promise<PassRecord | undefined> {
  const rows = await sql.query<PassRow>(
    `select ${passColumns}, (select t.version from passmint_templates t where t.id = passmint_passes.template_id) as template_version
       from passmint_passes where pass_type_identifier = $1 and serial_number = $2${lock ? ' for update of passmint_passes' : ''}`,
    [passTypeIdentifier, serialNumber],
  );
  return rows[0] === undefined ? undefined : toPass(rows[0]);
}

/**
 * The passes of one type among `serialNumbers` (those that exist), in serial
 * number order: one statement for a batch (an import in upsert mode).
 *
 * @example
 * ```ts
 * const found = await findPasses(db, 'pass.com.example.member', ['M-1', 'M-2']);
 * ```
 */
export async function findPasses(sql: SqlQueryable, passTypeIdentifier: string, serialNumbers: readonly string[]): Promise<PassRecord[]> {
  if (serialNumbers.length === 0) return [];
  const rows = await sql.query<PassRow>(
    `select ${passColumns} from passmint_passes where pass_type_identifier = $1 and serial_number = any($2::text[]) order by serial_number`,
    [passTypeIdentifier, serialNumbers],
  );
  return rows.map(toPass);
}

/**
 * The versions, states and templates of the passes of one type among
 * `serialNumbers` (those that exist), the rows locked for update to the end
 * of the transaction, in serial number order (two batches never wait on
 * each other in a circle).
 *
 * @example
 * ```ts
 * const now = await lockPassStates(tx, 'pass.com.example.member', ['M-1', 'M-2']);
 * ```
 */
export async function lockPassStates(
  tx: SqlQueryable,
  passTypeIdentifier: string,
  serialNumbers: readonly string[],
): Promise<{ serialNumber: string; version: number; state: PassState; templateId: number }[]> {
  if (serialNumbers.length === 0) return [];
  return tx.query<{ serialNumber: string; version: number; state: PassState; templateId: number }>(
    `select serial_number as "serialNumber", version, state, template_id as "templateId" from passmint_passes
      where pass_type_identifier = $1 and serial_number = any($2::text[]) order by serial_number for update`,
    [passTypeIdentifier, serialNumbers],
  );
}

/**
 * What a list of passes is narrowed to; every member given must hold
 * (AND). `values`: placeholder name → the exact value (a value stored as
 * a number or `true`/`false` matches its JSON text too).
 */
export interface PassFilter {
  readonly templateId?: number | undefined;
  readonly serialNumber?: string | undefined;
  /** Passes changed (or made) at or after this time. */
  readonly updatedSince?: Date | undefined;
  readonly values?: readonly (readonly [name: string, value: string])[] | undefined;
}

/**
 * The WHERE conditions of a filter, its parameters numbered from 1. Each
 * filter is its own condition (never `$1 is null or …`, which no index
 * serves): `template_id` with the keyset on `seq` uses
 * `passmint_passes_template`, the values a containment (`@>`) the GIN
 * index `passmint_passes_values` answers, the serial number and the time
 * their own indexes.
 */
export function filterSql(filter: PassFilter): { readonly conditions: string[]; readonly params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filter.templateId !== undefined) conditions.push(`template_id = ${param(filter.templateId)}::int`);
  if (filter.serialNumber !== undefined) conditions.push(`serial_number = ${param(filter.serialNumber)}`);
  if (filter.updatedSince !== undefined) conditions.push(`updated_at >= ${param(filter.updatedSince)}::timestamptz`);
  // Values stored as text, all in one containment; a value that reads as a JSON number or boolean may be stored as one.
  const asText: Record<string, string> = {};
  for (const [name, value] of filter.values ?? []) {
    const literal = jsonLiteral(value);
    if (literal === undefined) asText[name] = value;
    else {
      const text = param(JSON.stringify({ [name]: value }));
      const typed = param(JSON.stringify({ [name]: literal }));
      conditions.push(`(passmint_values_jsonb(pass_values) @> ${text}::jsonb or passmint_values_jsonb(pass_values) @> ${typed}::jsonb)`);
    }
  }
  if (Object.keys(asText).length > 0) conditions.push(`passmint_values_jsonb(pass_values) @> ${param(JSON.stringify(asText))}::jsonb`);
  return { conditions, params };
}

/** The JSON number or boolean a query's text reads as (`42`, `-1.5`, `true`), or `undefined`. */
function jsonLiteral(text: string): number | boolean | undefined {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (!/^-?(?:0|[1-9]\d{0,14})(?:\.\d{1,15})?$/.test(text)) return undefined;
  const number = Number(text);
  return Number.isFinite(number) ? number : undefined;
}

/**
 * A page of passes in creation order (see {@link keysetPage}), narrowed by
 * `filter` (a template, a serial number, a time, values). The keyset on
 * `seq` keeps pages stable while passes are made and changed.
 *
 * @example
 * ```ts
 * const page = await listPasses(db, { limit: 50, direction: 'after', cursor: undefined }, { templateId: 3, values: [['tier', 'gold']] });
 * ```
 */
export async function listPasses(sql: SqlQueryable, query: PageQuery, filter: PassFilter = {}): Promise<PassRecord[]> {
  const { conditions, params } = filterSql(filter);
  const page = keysetPage('seq', query, params.length + 1);
  const rows = await sql.query<PassRow>(`select ${passColumns} from passmint_passes where ${[...conditions, page.sql].join(' and ')}`, [
    ...params,
    ...page.params,
  ]);
  return rows.map(toPass);
}

/**
 * The next `limit` passes after `afterSeq` (in creation order) that match
 * `filter`, locked for update to the end of the transaction: a batch of a
 * job that works through passes (a publish, a bulk void).
 *
 * @example
 * ```ts
 * const batch = await lockPassPage(tx, { templateId: 3 }, cursor, 100);
 * ```
 */
export async function lockPassPage(tx: SqlQueryable, filter: PassFilter, afterSeq: number, limit: number): Promise<PassRecord[]> {
  const { conditions, params } = filterSql(filter);
  const page = keysetPage('seq', { limit, direction: 'after', cursor: afterSeq }, params.length + 1);
  const rows = await tx.query<PassRow>(
    `select ${passColumns} from passmint_passes where ${[...conditions, page.sql].join(' and ')} for update of passmint_passes`,
    [...params, ...page.params],
  );
  return rows.map(toPass);
}

/**
 * The passes of `records` as they are now (by their `seq`), locked for
 * update to the end of the transaction; those deleted since are left out.
 *
 * @example
 * ```ts
 * const now = await lockPasses(tx, batch);
 * ```
 */
export async function lockPasses(tx: SqlQueryable, records: readonly { readonly seq: number }[]): Promise<PassRecord[]> {
  if (records.length === 0) return [];
  const rows = await tx.query<PassRow>(`select ${passColumns} from passmint_passes where seq = any($1::bigint[]) order by seq for update`, [
    records.map((record) => record.seq),
  ]);
  return rows.map(toPass);
}

/**
 * The versions and states of passes (by their `seq`), the rows locked for
 * update to the end of the transaction; those deleted since are left out.
 *
 * @example
 * ```ts
 * const now = await lockPassVersions(tx, batch);
 * ```
 */
export async function lockPassVersions(
  tx: SqlQueryable,
  records: readonly { readonly seq: number }[],
): Promise<{ seq: number; version: number; state: PassState }[]> {
  if (records.length === 0) return [];
  return tx.query<{ seq: number; version: number; state: PassState }>(
    'select seq, version, state from passmint_passes where seq = any($1::bigint[]) order by seq for update',
    [records.map((record) => record.seq)],
  );
}

/**
 * How many passes match `filter` (an index scan: the template's, the values').
 *
 * @example
 * ```ts
 * const total = await countPasses(db, { templateId: 3 });
 * ```
 */
export async function countPasses(sql: SqlQueryable, filter: PassFilter): Promise<number> {
  const { conditions, params } = filterSql(filter);
  const rows = await sql.query<{ n: number }>(
    `select count(*)::int as n from passmint_passes${conditions.length === 0 ? '' : ` where ${conditions.join(' and ')}`}`,
    params,
  );
  return rows[0]?.n ?? 0;
}

/**
 * The plan PostgreSQL chooses for a page of {@link listPasses} (`EXPLAIN`,
 * one line per row): what a test or a benchmark checks is served by an index.
 *
 * @example
 * ```ts
 * const plan = await explainListPasses(db, { limit: 50, direction: 'after', cursor: undefined }, { templateId: 3 });
 * ```
 */
export async function explainListPasses(sql: SqlQueryable, query: PageQuery, filter: PassFilter = {}): Promise<string[]> {
  const { conditions, params } = filterSql(filter);
  const page = keysetPage('seq', query, params.length + 1);
  const rows = await sql.query<{ 'QUERY PLAN': string }>(
    `explain select ${passColumns} from passmint_passes where ${[...conditions, page.sql].join(' and ')}`,
    [...params, ...page.params],
  );
  return rows.map((row) => row['QUERY PLAN']);
}

/** Stores a pass's new values and rendering, one version up. */
export async function updatePass(sql: SqlQueryable, values: JsonObject, pass: Pass): Promise<PassRecord> {
  const rows = await sql.query<PassRow>(
    `update passmint_passes set pass_values = $3::json, pass = $4::json, version = version + 1, updated_at = now(),
            rendered_version = (select t.version from passmint_templates t where t.id = passmint_passes.template_id)
      where pass_type_identifier = $1 and serial_number = $2 returning ${passColumns}`,
    [pass.passTypeIdentifier, pass.serialNumber, JSON.stringify(values), JSON.stringify(pass)],
  );
  return toPass(rows[0]!);
}

/** Deletes a pass and the devices' registrations of it; `false` when there was none. */
export async function deletePass(sql: SqlQueryable, passTypeIdentifier: string, serialNumber: string): Promise<boolean> {
  const rows = await sql.query('delete from passmint_passes where pass_type_identifier = $1 and serial_number = $2 returning 1', [
    passTypeIdentifier,
    serialNumber,
  ]);
  if (rows.length === 0) return false;
  await sql.query('delete from passmint_wallet_registrations where pass_type_identifier = $1 and serial_number = $2', [passTypeIdentifier, serialNumber]);
  return true;
}

/** The pass the service has most recently changed of a template (its Google class is rendered from it), or `undefined`. */
export async function latestPassOfTemplate(sql: SqlQueryable, templateId: number): Promise<Pass | undefined> {
  const rows = await sql.query<{ pass: Pass }>('select pass from passmint_passes where template_id = $1 order by updated_at desc, seq desc limit 1', [
    templateId,
  ]);
  return rows[0]?.pass;
}

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
 * One statement: the passes whose template is still at the version they were
 * rendered from (and whose serial number is free), then one counter bump for
 * their events (numbered in the batch's order, so the outbox's order holds),
 * the events, and a pending delivery per event and enabled registration
 * that takes `pass.created` (its `events` null, or naming it). `rows`: the
 * inserted passes' rows are answered too; otherwise only their places in the
 * input (an import, which needs no more, reads and parses no pass back).
 * The JSON columns come as one text each, the documents a line apiece
 * ({@link jsonLines}): neither end escapes them as array elements.
 */
const insertPassesSql = (rows: boolean): string => `with input as (
     select * from unnest($1::text[], $2::text[], $3::int[], $4::int[], string_to_array($5, E'\\n'), string_to_array($6, E'\\n'), $7::uuid[],
                          string_to_array($8, E'\\n')) with ordinality
       as x(type, serial, template_id, template_version, vals, pass, event_id, event_body, i)),
   inserted as (
     insert into passmint_passes (pass_type_identifier, serial_number, template_id, pass_values, pass, rendered_version)
     select x.type, x.serial, x.template_id, x.vals::json, x.pass::json, x.template_version from input x
      where exists (select 1 from passmint_templates t where t.id = x.template_id and t.version = x.template_version)
      order by x.i
     on conflict (pass_type_identifier, serial_number) do nothing
     returning ${rows ? passColumns : 'pass_type_identifier, serial_number'}),
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
     select event.seq, webhook.id, 'pending' from event cross join passmint_webhooks webhook
      where webhook.state = 'enabled' and (webhook.events is null or 'pass.created' = any (webhook.events))
     returning 1)
 select x.i::int as i, (select count(*) from delivery)::int as deliveries${rows ? ', p.*' : ''}
   from inserted p join input x on x.type = p.pass_type_identifier and x.serial = p.serial_number`;

/**
 * JSON documents as one text, a line each: JSON.stringify never writes a
 * line break (one inside a string is escaped), so SQL's `string_to_array`
 * on a line break gives them back. At least one document (an empty text is
 * no document). Cheaper at both ends than an array's quoting: a batch of
 * passes is most of its statement's bytes.
 *
 * @example
 * ```ts
 * await tx.query(`select unnest(string_to_array($1, E'\\n'))::json`, [jsonLines([JSON.stringify(pass)])]);
 * ```
 */
export const jsonLines = (documents: readonly string[]): string => documents.join('\n');

const INSERT_PASSES = insertPassesSql(true);
const INSERT_PASS_COLUMNS = insertPassesSql(false);

/** A pass {@link insertPassesWithEvents} inserted: `i` its place in the input (from 1), `deliveries` how many deliveries the statement queued. */
export interface InsertedPassRow extends PassRow {
  i: number;
  /** Deliveries the statement queued (the same on every row). */
  deliveries: number;
}

/**
 * Inserts passes with their `pass.created` events and the events'
 * deliveries, in one statement: only the passes whose template is still at
 * the version they were rendered from and whose serial number is free (the
 * others are left out of the answer). Two items must not share a serial number.
 *
 * @example
 * ```ts
 * const rows = await insertPassesWithEvents(db, [{ templateId: 1, templateVersion: 3, values, pass, event }]);
 * ```
 */
export async function insertPassesWithEvents(sql: SqlQueryable, items: readonly NewPass[]): Promise<InsertedPassRow[]> {
  return sql.query<InsertedPassRow>(INSERT_PASSES, [
    items.map((item) => item.pass.passTypeIdentifier),
    items.map((item) => item.pass.serialNumber),
    items.map((item) => item.templateId),
    items.map((item) => item.templateVersion),
    jsonLines(items.map((item) => JSON.stringify(item.values))),
    jsonLines(items.map((item) => JSON.stringify(item.pass))),
    items.map((item) => item.event.id),
    jsonLines(items.map((item) => JSON.stringify(item.event))),
  ]);
}

/**
 * New passes as the columns of {@link insertPassColumns}, their JSON already
 * text (an import builds them while it renders, between turns of the event
 * loop, rather than all at once when the statement is sent).
 */
export interface NewPassColumns {
  readonly types: string[];
  readonly serials: string[];
  readonly templateIds: number[];
  readonly templateVersions: number[];
  /** The values, JSON text. */
  readonly values: string[];
  /** The passes, JSON text. */
  readonly passes: string[];
  readonly eventIds: string[];
  /** The `pass.created` events, JSON text. */
  readonly events: string[];
}

/**
 * {@link insertPassesWithEvents} for columns: the same one statement, which
 * answers only which passes it inserted — `i`, a place in the columns (from
 * 1) — and how many deliveries it queued (the same on every row).
 *
 * @example
 * ```ts
 * const made = new Set((await insertPassColumns(tx, columns)).map((row) => row.i));
 * ```
 */
export async function insertPassColumns(sql: SqlQueryable, columns: NewPassColumns): Promise<{ i: number; deliveries: number }[]> {
  return sql.query<{ i: number; deliveries: number }>(INSERT_PASS_COLUMNS, [
    columns.types,
    columns.serials,
    columns.templateIds,
    columns.templateVersions,
    jsonLines(columns.values),
    jsonLines(columns.passes),
    columns.eventIds,
    jsonLines(columns.events),
  ]);
}
