// Share pages (`/p/{share id}`): a pass, or a bundle of passes, by the
// random id of its public page (passmint_passes.share_id, unique index).
import { toPass, type PassRecord, type PassRow } from './passes.js';
import type { SqlQueryable } from './sql.js';

/** A share id as the service makes them: 128 random bits in base64url (22 characters). */
export const SHARE_ID: RegExp = /^[A-Za-z0-9_-]{22}$/;

/**
 * The pass whose share page this is, or `undefined` (read by the unique
 * index on share_id; an id of the wrong shape reads nothing).
 *
 * @example
 * ```ts
 * const pass = await findPassByShare(db, 'V27t9Fkh3Yx7WquSPcuk4g');
 * ```
 */
export async function findPassByShare(sql: SqlQueryable, shareId: string): Promise<PassRecord | undefined> {
  if (!SHARE_ID.test(shareId)) return undefined;
  const rows = await sql.query<PassRow>(
    `select p.*, (select t.version from passmint_templates t where t.id = p.template_id) as template_version
       from passmint_passes p where p.share_id = $1`,
    [shareId],
  );
  return rows[0] === undefined ? undefined : toPass(rows[0]);
}
