// A pass program's rows: the versions of a template, the passes a publish or
// a bulk void writes a batch at a time (one statement per kind of write, not
// one per pass), and the cursor those jobs keep.
import type { JsonObject, Pass } from '../../types.js';
import { jsonLines, type PassState } from './passes.js';
import type { SqlQueryable } from './sql.js';

/** A pass named by its type and serial number. */
export interface PassKey {
  readonly passTypeIdentifier: string;
  readonly serialNumber: string;
}

/** A version of a template, and how many passes are at it now. */
export interface TemplateVersion {
  readonly version: number;
  /** Only the template's files changed at this version (its body is the previous one's). */
  readonly filesChanged: boolean;
  /** The API key that made it, when the change recorded one. */
  readonly keyId: string | null;
  readonly created: Date;
  readonly passes: number;
}

/**
 * A template's versions, newest first (at most `limit`), each with how many
 * of its passes were last rendered from it. Passes made before versions
 * were recorded are at no version: `unknown` counts them.
 *
 * @example
 * ```ts
 * const { versions, unknown } = await templateVersions(db, 3, 100);
 * ```
 */
export async function templateVersions(sql: SqlQueryable, templateId: number, limit: number): Promise<{ versions: TemplateVersion[]; unknown: number }> {
  const versions = await sql.query<{ version: number; files_changed: boolean; key_id: string | null; created_at: Date }>(
    `select version, files_changed, key_id, created_at from passmint_template_versions where template_id = $1 order by version desc limit $2`,
    [templateId, limit],
  );
  // One index-only scan of (template_id, rendered_version).
  const counts = await sql.query<{ version: number | null; n: number }>(
    'select rendered_version as version, count(*)::int as n from passmint_passes where template_id = $1 group by rendered_version',
    [templateId],
  );
  const byVersion = new Map(counts.map((row) => [row.version, row.n]));
  return {
    versions: versions.map((row) => ({
      version: row.version,
      filesChanged: row.files_changed,
      keyId: row.key_id,
      created: row.created_at,
      passes: byVersion.get(row.version) ?? 0,
    })),
    unknown: byVersion.get(null) ?? 0,
  };
}

/**
 * The versions of a template at which only its files changed, oldest first:
 * a pass rendered before one of them has a stale package even where its
 * pass.json renders the same.
 *
 * @example
 * ```ts
 * const changes = await fileChanges(tx, 3);
 * ```
 */
export async function fileChanges(sql: SqlQueryable, templateId: number): Promise<{ version: number; created: Date }[]> {
  const rows = await sql.query<{ version: number; created_at: Date }>(
    'select version, created_at from passmint_template_versions where template_id = $1 and files_changed order by version',
    [templateId],
  );
  return rows.map((row) => ({ version: row.version, created: row.created_at }));
}

/** A pass to store as a new version: its rendering, the template version it came from, and its state. */
export interface PassChange {
  readonly pass: Pass;
  /** `pass` as JSON text, when the caller has made it already (to compare it with the stored one). */
  readonly json?: string | undefined;
  readonly renderedVersion: number | null;
  readonly state: PassState;
  /** Its new values (an import's row); otherwise they stay. */
  readonly values?: JsonObject | undefined;
}

/**
 * Stores passes' new renderings (one version up each), in one statement.
 * Their values stay, unless a change brings its own.
 *
 * @example
 * ```ts
 * await writePassChanges(tx, [{ pass, renderedVersion: 4, state: 'active' }]);
 * ```
 */
export async function writePassChanges(tx: SqlQueryable, changes: readonly PassChange[]): Promise<void> {
  if (changes.length === 0) return;
  await tx.query(
    `update passmint_passes p set pass = x.pass::json, version = p.version + 1, updated_at = now(), rendered_version = coalesce(x.rendered, p.rendered_version),
            state = x.state, pass_values = coalesce(x.vals::json, p.pass_values)
       from unnest($1::text[], $2::text[], string_to_array($3, E'\\n'), $4::int[], $5::text[], $6::text[]) as x(type, serial, pass, rendered, state, vals)
      where p.pass_type_identifier = x.type and p.serial_number = x.serial`,
    [
      changes.map((change) => change.pass.passTypeIdentifier),
      changes.map((change) => change.pass.serialNumber),
      jsonLines(changes.map((change) => change.json ?? JSON.stringify(change.pass))),
      changes.map((change) => change.renderedVersion),
      changes.map((change) => change.state),
      changes.map((change) => (change.values === undefined ? null : JSON.stringify(change.values))),
    ],
  );
}

/**
 * Records that passes render the same at template `version` (no new pass
 * version, no event): they are at that version now.
 *
 * @example
 * ```ts
 * await setRenderedVersion(tx, keys, 4);
 * ```
 */
export async function setRenderedVersion(tx: SqlQueryable, keys: readonly PassKey[], version: number): Promise<void> {
  if (keys.length === 0) return;
  await tx.query(
    `update passmint_passes p set rendered_version = $3
       from unnest($1::text[], $2::text[]) as x(type, serial)
      where p.pass_type_identifier = x.type and p.serial_number = x.serial and p.rendered_version is distinct from $3`,
    [keys.map((key) => key.passTypeIdentifier), keys.map((key) => key.serialNumber), version],
  );
}

/**
 * Queues an APNs push to every device that holds one of the passes (one per
 * device token and pass type), in one statement.
 *
 * @example
 * ```ts
 * await queuePushesOf(tx, keys);
 * ```
 */
export async function queuePushesOf(tx: SqlQueryable, keys: readonly PassKey[]): Promise<void> {
  if (keys.length === 0) return;
  await tx.query(
    `insert into passmint_pushes (push_token, topic, status)
     select distinct r.push_token, r.pass_type_identifier, 'pending'
       from unnest($1::text[], $2::text[]) as x(type, serial)
       join passmint_wallet_registrations r on r.pass_type_identifier = x.type and r.serial_number = x.serial`,
    [keys.map((key) => key.passTypeIdentifier), keys.map((key) => key.serialNumber)],
  );
}

/**
 * Gives passes the next update tag (one tag for them all: Apple's web
 * service lists a pass as changed since any tag below it), in one
 * statement. As `markPassUpdated` does for one pass, the tag counter's row
 * is held to the commit: call it after the other writes, before the events.
 *
 * @example
 * ```ts
 * await markPassesUpdated(tx, keys);
 * ```
 */
export async function markPassesUpdated(tx: SqlQueryable, keys: readonly PassKey[]): Promise<void> {
  if (keys.length === 0) return;
  await tx.query(
    `with counter as (
       update passmint_counters
          set value = greatest(value + 1, (extract(epoch from clock_timestamp()) * 1000000)::bigint)
        where name = 'tag'
       returning value)
     insert into passmint_wallet_tags (pass_type_identifier, serial_number, tag)
     select x.type, x.serial, counter.value from unnest($1::text[], $2::text[]) as x(type, serial) cross join counter
     on conflict (pass_type_identifier, serial_number) do update set tag = excluded.tag`,
    [keys.map((key) => key.passTypeIdentifier), keys.map((key) => key.serialNumber)],
  );
}

/**
 * Where a job that works through passes is (the `seq` of the last pass it
 * did; 0 before the first), read in the batch's transaction.
 *
 * @example
 * ```ts
 * const after = await jobCursor(tx, job.id);
 * ```
 */
export async function jobCursor(tx: SqlQueryable, jobSeq: number): Promise<number> {
  const rows = await tx.query<{ cursor_key: number | null }>('select cursor_key from passmint_jobs where id = $1', [jobSeq]);
  return rows[0]?.cursor_key ?? 0;
}

/**
 * Moves a job's cursor (in the batch's transaction, with the batch's writes).
 *
 * @example
 * ```ts
 * await setJobCursor(tx, job.id, last.seq);
 * ```
 */
export async function setJobCursor(tx: SqlQueryable, jobSeq: number, key: number): Promise<void> {
  await tx.query('update passmint_jobs set cursor_key = $2 where id = $1', [jobSeq, key]);
}

/** One line of a pass job's results. */
export interface PassResult {
  readonly n: number;
  /** `changed`, `unchanged` or `failed` (a publish); `voided`, `unchanged` (a bulk void). */
  readonly status: string;
  readonly serialNumber: string;
  readonly problem: string | null;
}

/**
 * Adds a batch's results to a job (one statement).
 *
 * @example
 * ```ts
 * await addPassResults(tx, job.id, [{ n: 1, status: 'changed', serialNumber: 'M-1', problem: null }]);
 * ```
 */
export async function addPassResults(tx: SqlQueryable, jobSeq: number, results: readonly PassResult[]): Promise<void> {
  if (results.length === 0) return;
  await tx.query(
    `insert into passmint_job_results (job_id, n, status, serial_number, problem)
     select $1, x.n, x.status, x.serial, x.problem from unnest($2::int[], $3::text[], $4::text[], $5::text[]) as x(n, status, serial, problem)`,
    [jobSeq, results.map((r) => r.n), results.map((r) => r.status), results.map((r) => r.serialNumber), results.map((r) => r.problem)],
  );
}
