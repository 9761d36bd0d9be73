// Templates and their files (images, xx.lproj/), as rows.
import type { PassTemplate } from '../../types.js';
import { keysetPage, type PageQuery } from '../http/paging.js';
import type { SqlQueryable } from './sql.js';

/** A template as stored: the PassTemplate (its `id` is the row's) and its version. */
export interface TemplateRecord {
  readonly template: PassTemplate;
  readonly version: number;
  readonly created: Date;
  readonly updated: Date;
}

interface TemplateRow {
  id: number;
  template: PassTemplate;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const toTemplate = (row: TemplateRow): TemplateRecord => ({
  // The row's id wins over whatever the stored object says.
  template: { ...row.template, id: row.id },
  version: row.version,
  created: row.created_at,
  updated: row.updated_at,
});

/** Takes the next template id (so the stored object can carry it). */
export async function nextTemplateId(sql: SqlQueryable): Promise<number> {
  const rows = await sql.query<{ id: number }>(`select nextval(pg_get_serial_sequence('passmint_templates', 'id'))::int as id`);
  return rows[0]!.id;
}

/**
 * Names the API key making this transaction's change to a template: the
 * template's new version records it (`GET /v1/templates/{id}/versions`'s who).
 *
 * @example
 * ```ts
 * await db.transaction(async (tx) => { await changedBy(tx, caller?.id); await updateTemplate(tx, template); });
 * ```
 */
export async function changedBy(tx: SqlQueryable, keyId: string | undefined): Promise<void> {
  if (keyId !== undefined) await tx.query("select set_config('passmint.key_id', $1, true)", [keyId]);
}

/** Stores a new template under the id it carries (see {@link nextTemplateId}), at version 1. */
export async function insertTemplate(sql: SqlQueryable, template: PassTemplate): Promise<TemplateRecord> {
  const rows = await sql.query<TemplateRow>(
    `insert into passmint_templates (id, template) values ($1, $2::json) returning id, template, version, created_at, updated_at`,
    [template.id, JSON.stringify(template)],
  );
  return toTemplate(rows[0]!);
}

/** A template by id, or `undefined`. */
export async function findTemplate(sql: SqlQueryable, id: number): Promise<TemplateRecord | undefined> {
  const rows = await sql.query<TemplateRow>('select id, template, version, created_at, updated_at from passmint_templates where id = $1', [id]);
  return rows[0] === undefined ? undefined : toTemplate(rows[0]);
}

/** A page of templates by id (see {@link keysetPage}). */
export async function listTemplates(sql: SqlQueryable, query: PageQuery): Promise<TemplateRecord[]> {
  const page = keysetPage('id', query, 1);
  const rows = await sql.query<TemplateRow>(`select id, template, version, created_at, updated_at from passmint_templates where ${page.sql}`, page.params);
  return rows.map(toTemplate);
}

/**
 * Replaces a template's body, one version up — or, when the body is the one stored, changes nothing (no
 * version: one would be recorded as a change of its files); `undefined` when there is no such template.
 */
export async function updateTemplate(sql: SqlQueryable, template: PassTemplate): Promise<TemplateRecord | undefined> {
  const rows = await sql.query<TemplateRow>(
    `update passmint_templates set template = $2::json,
       version = case when template::text = $2::text then version else version + 1 end,
       updated_at = case when template::text = $2::text then updated_at else now() end
     where id = $1
     returning id, template, version, created_at, updated_at`,
    [template.id, JSON.stringify(template)],
  );
  return rows[0] === undefined ? undefined : toTemplate(rows[0]);
}

/** `deleted`, `missing`, or `in-use` when passes were made from it (they keep their template). */
export async function deleteTemplate(sql: SqlQueryable, id: number): Promise<'deleted' | 'missing' | 'in-use'> {
  // In the (template_id, seq) index's order: a prepared statement's generic plan, which guesses that
  // half the passes match, would otherwise read the whole table for a template no pass was made from.
  const used = await sql.query('select 1 from passmint_passes where template_id = $1 order by seq limit 1', [id]);
  if (used.length > 0) return 'in-use';
  try {
    const rows = await sql.query('delete from passmint_templates where id = $1 returning 1', [id]);
    return rows.length > 0 ? 'deleted' : 'missing';
  } catch (error) {
    // A pass made from it committed between the check and the delete: the foreign key refuses.
    if (isForeignKeyViolation(error)) return 'in-use';
    throw error;
  }
}

/** Bumps the template's version: the prepared files cached for it are stale. */
async function touchTemplate(sql: SqlQueryable, id: number): Promise<boolean> {
  const rows = await sql.query('update passmint_templates set version = version + 1, updated_at = now() where id = $1 returning 1', [id]);
  return rows.length > 0;
}

/** How many files, and how many bytes in all, one template may have. */
export interface BundleLimits {
  readonly maxFiles: number;
  readonly maxBytes: number;
}

/**
 * Adds or replaces a file, unless the template would then have more than
 * `limits.maxFiles` files or `limits.maxBytes` bytes. Counted after the
 * template's row is locked (by the version bump), so two uploads to one
 * template cannot both take the last place.
 */
export async function putTemplateFile(
  sql: SqlQueryable,
  id: number,
  path: string,
  bytes: Uint8Array,
  limits?: BundleLimits,
): Promise<'stored' | 'template-missing' | 'too-many-files' | 'bundle-too-large'> {
  if (!(await touchTemplate(sql, id))) return 'template-missing';
  if (limits !== undefined) {
    const [others] = await sql.query<{ files: number; bytes: number }>(
      `select count(*)::int as files, coalesce(sum(octet_length(bytes)), 0)::float8 as bytes
         from passmint_template_files where template_id = $1 and path <> $2`,
      [id, path],
    );
    if (others!.files + 1 > limits.maxFiles) return 'too-many-files';
    if (others!.bytes + bytes.byteLength > limits.maxBytes) return 'bundle-too-large';
  }
  await sql.query(
    `insert into passmint_template_files (template_id, path, bytes) values ($1, $2, $3)
     on conflict (template_id, path) do update set bytes = excluded.bytes`,
    [id, path, bytes],
  );
  return 'stored';
}

/** Removes a file (the template's version goes up); `false` when there was none. */
export async function deleteTemplateFile(sql: SqlQueryable, id: number, path: string): Promise<boolean> {
  const rows = await sql.query('delete from passmint_template_files where template_id = $1 and path = $2 returning 1', [id, path]);
  if (rows.length === 0) return false;
  await touchTemplate(sql, id);
  return true;
}

/** A template's files, by bundle path. */
export async function templateFiles(sql: SqlQueryable, id: number): Promise<Map<string, Uint8Array>> {
  const rows = await sql.query<{ path: string; bytes: Uint8Array }>('select path, bytes from passmint_template_files where template_id = $1 order by path', [
    id,
  ]);
  return new Map(rows.map((row) => [row.path, row.bytes]));
}

/** A template's files' paths and sizes in bytes, without reading the bytes out. */
export async function templateFileSizes(sql: SqlQueryable, id: number): Promise<{ path: string; size: number }[]> {
  return sql.query<{ path: string; size: number }>(
    'select path, octet_length(bytes) as size from passmint_template_files where template_id = $1 order by path',
    [id],
  );
}

/**
 * A refusal by a foreign key: foreign_key_violation (23503), or
 * restrict_violation (23001), which PostgreSQL 18 (PGlite's) reports for
 * `on delete restrict` where 15 reports 23503.
 */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === '23503' || code === '23001';
}
