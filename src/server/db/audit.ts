// The audit log: who changed what, when, from where, with what outcome. Rows are only ever added
// (and deleted by retention when old): no statement here changes one.
import { keysetPage, type PageQuery } from '../http/paging.js';
import type { SqlQueryable } from './sql.js';

/**
 * How a change was asked for: an API key (`key`), a console session that
 * acts with its key (`session`), or the command on the service's database
 * (`command`).
 */
export type AuditVia = 'key' | 'session' | 'command';

/** The actor id the command line's changes are recorded under. */
export const COMMAND_LINE_ACTOR = 'command-line';

/**
 * One change to record.
 *
 * @example
 * ```ts
 * const entry: AuditInput = {
 *   actorId: '0b6f9a52-…', actorName: 'deploy', via: 'key', address: '203.0.113.7',
 *   action: 'template.update', target: '/v1/templates/7', status: 200, problem: null, requestId: '7f3c…',
 * };
 * ```
 */
export interface AuditInput {
  /** The API key's id, or `command-line`. */
  readonly actorId: string;
  /** The API key's name, or `command line`. */
  readonly actorName: string;
  readonly via: AuditVia;
  /** The client's address (`null` for the command line). */
  readonly address: string | null;
  /** What was done: `template.update`, `key.revoke`, … */
  readonly action: string;
  /** The path of the resource acted on (`/v1/templates/7`), `null` when there is none. */
  readonly target: string | null;
  /** The outcome: the HTTP status answered (the command line records the status the same call over the API answers). */
  readonly status: number;
  /** The problem's `code` when the change was refused or failed; otherwise `null`. */
  readonly problem: string | null;
  readonly requestId: string | null;
}

/** A recorded change: its place in the log (`seq`) and time, and what was recorded. */
export interface AuditRecord extends AuditInput {
  readonly seq: number;
  readonly time: Date;
}

/**
 * What a list of the log is narrowed to: each field an exact match, `from`
 * inclusive and `to` exclusive.
 *
 * @example
 * ```ts
 * const filter: AuditFilter = { action: 'key.create', from: new Date('2026-01-01T00:00:00Z') };
 * ```
 */
export interface AuditFilter {
  readonly action?: string | undefined;
  readonly actor?: string | undefined;
  readonly target?: string | undefined;
  readonly from?: Date | undefined;
  readonly to?: Date | undefined;
}

interface AuditRow {
  seq: string | number;
  at: Date;
  actor_id: string;
  actor_name: string;
  via: AuditVia;
  address: string | null;
  action: string;
  target: string | null;
  status: number;
  problem: string | null;
  request_id: string | null;
}

const COLUMNS = 'seq, at, actor_id, actor_name, via, address, action, target, status, problem, request_id';

const recordOf = (row: AuditRow): AuditRecord => ({
  seq: Number(row.seq),
  time: row.at,
  actorId: row.actor_id,
  actorName: row.actor_name,
  via: row.via,
  address: row.address,
  action: row.action,
  target: row.target,
  status: row.status,
  problem: row.problem,
  requestId: row.request_id,
});

/**
 * Records one change; resolves to the record as stored.
 *
 * @example
 * ```ts
 * await recordAudit(db, { actorId: COMMAND_LINE_ACTOR, actorName: 'command line', via: 'command', address: null,
 *   action: 'key.create', target: `/v1/keys/${id}`, status: 201, problem: null, requestId: null });
 * ```
 */
export async function recordAudit(sql: SqlQueryable, entry: AuditInput): Promise<AuditRecord> {
  const rows = await sql.query<AuditRow>(
    `insert into passmint_audit (actor_id, actor_name, via, address, action, target, status, problem, request_id)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning ${COLUMNS}`,
    [entry.actorId, entry.actorName, entry.via, entry.address, entry.action, entry.target, entry.status, entry.problem, entry.requestId],
  );
  return recordOf(rows[0]!);
}

/**
 * A page of the log (see {@link keysetPage}), narrowed by `filter`. Each
 * exact filter is served by its index on (column, seq); a time range becomes
 * a range of `seq` read from the index on the time (entries are numbered in
 * the order they are written), and the times are checked on the rows too.
 *
 * @example
 * ```ts
 * const entries = await listAudit(db, { action: 'key.revoke' }, { limit: 50, direction: 'before', cursor: undefined });
 * ```
 */
export async function listAudit(sql: SqlQueryable, filter: AuditFilter, query: PageQuery): Promise<AuditRecord[]> {
  const { text, params } = auditQuery(filter, query);
  const rows = await sql.query<AuditRow>(text, params);
  return rows.map(recordOf);
}

/**
 * The plan PostgreSQL makes for {@link listAudit} (`EXPLAIN`, one line per
 * row): what the plan test reads to check every filter is served by an index.
 *
 * @example
 * ```ts
 * (await explainListAudit(db, { action: 'key.create' }, page)).join('\n'); // "… Index Scan … passmint_audit_action …"
 * ```
 */
export async function explainListAudit(sql: SqlQueryable, filter: AuditFilter, query: PageQuery): Promise<string[]> {
  const { text, params } = auditQuery(filter, query);
  const rows = await sql.query<{ 'QUERY PLAN': string }>(`explain ${text}`, params);
  return rows.map((row) => row['QUERY PLAN']);
}

/** The statement of a page of the log and its parameters. */
function auditQuery(filter: AuditFilter, query: PageQuery): { readonly text: string; readonly params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (condition: (n: string) => string, value: unknown): void => {
    params.push(value);
    where.push(condition(`$${params.length}`));
  };
  if (filter.action !== undefined) add((n) => `action = ${n}`, filter.action);
  if (filter.actor !== undefined) add((n) => `actor_id = ${n}`, filter.actor);
  if (filter.target !== undefined) add((n) => `target = ${n}`, filter.target);
  // A time range is a range of seq, each end read from the index on (at, seq); the times are checked on the rows too.
  if (filter.from !== undefined) {
    add((n) => `seq >= coalesce((select seq from passmint_audit where at >= ${n} order by at, seq limit 1), 9223372036854775807) and at >= ${n}`, filter.from);
  }
  if (filter.to !== undefined) {
    add((n) => `seq <= coalesce((select seq from passmint_audit where at < ${n} order by at desc, seq desc limit 1), 0) and at < ${n}`, filter.to);
  }
  const page = keysetPage('seq', query, params.length + 1);
  return { text: `select ${COLUMNS} from passmint_audit where ${[...where, page.sql].join(' and ')}`, params: [...params, ...page.params] };
}

/**
 * Deletes, oldest first, at most `limit` entries older than `days` whole
 * days; resolves to how many went.
 *
 * @example
 * ```ts
 * await deleteOldAudit(tx, 365, 1000); // 0 … 1000
 * ```
 */
export async function deleteOldAudit(sql: SqlQueryable, days: number, limit: number): Promise<number> {
  const rows = await sql.query<{ n: number }>(
    `with gone as (delete from passmint_audit where seq in (
        select seq from passmint_audit where at < now() - $1 * interval '1 day' order by at limit $2)
       returning 1) select count(*)::int as n from gone`,
    [days, limit],
  );
  return rows[0]?.n ?? 0;
}
