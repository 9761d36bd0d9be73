// What a key limited to some templates may reach: the template a pass or a job belongs to, and
// which of a list of templates exist. Each a lookup by primary or unique key.
import type { SqlQueryable } from './sql.js';

/**
 * The ids among `templateIds` (decimal text) of templates that do not exist.
 *
 * @example
 * ```ts
 * await missingTemplates(db, ['1', '99']); // ['99']
 * ```
 */
export async function missingTemplates(sql: SqlQueryable, templateIds: readonly string[]): Promise<string[]> {
  const rows = await sql.query<{ id: number }>('select id from passmint_templates where id = any($1::int[])', [templateIds.map(Number)]);
  const found = new Set(rows.map((row) => String(row.id)));
  return templateIds.filter((id) => !found.has(id));
}

/** The template a pass was made from (decimal text), or `undefined` when there is no such pass. */
export async function templateOfPass(sql: SqlQueryable, passTypeIdentifier: string, serialNumber: string): Promise<string | undefined> {
  const rows = await sql.query<{ template_id: number }>('select template_id from passmint_passes where pass_type_identifier = $1 and serial_number = $2', [
    passTypeIdentifier,
    serialNumber,
  ]);
  return rows[0] === undefined ? undefined : String(rows[0].template_id);
}

/** The template a job (an import, a publish) works on (decimal text), `null` for a job of no template, `undefined` for no such job. */
export async function templateOfJob(sql: SqlQueryable, publicId: string): Promise<string | null | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(publicId)) return undefined;
  const rows = await sql.query<{ template_id: number | null }>('select template_id from passmint_jobs where public_id = $1', [publicId]);
  if (rows[0] === undefined) return undefined;
  return rows[0].template_id === null ? null : String(rows[0].template_id);
}

/**
 * The pass types of the templates `templateIds` (decimal text), distinct and sorted: the signing identities
 * a key limited to them already holds. Read by primary key, at most the list's length.
 *
 * @example
 * ```ts
 * await passTypesOfTemplates(db, ['1', '3']); // ['pass.com.example.member']
 * ```
 */
export async function passTypesOfTemplates(sql: SqlQueryable, templateIds: readonly string[]): Promise<string[]> {
  const rows = await sql.query<{ pass_type: string }>(
    `select distinct template ->> 'passType' as pass_type from passmint_templates where id = any($1::int[]) order by 1`,
    [templateIds.map(Number)],
  );
  return rows.map((row) => row.pass_type);
}
