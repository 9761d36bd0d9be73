import type { SqlQueryable } from './sql.js';

/**
 * The schema version the database is at: the last migration applied, 0 for
 * none. `/readyz` compares it with the version this passmint needs.
 *
 * @example
 * ```ts
 * if ((await appliedSchemaVersion(db)) < schemaVersion()) console.log('migrate first');
 * ```
 */
export async function appliedSchemaVersion(db: SqlQueryable): Promise<number> {
  const rows = await db.query<{ version: number }>('select coalesce(max(version), 0)::int as version from passmint_migrations');
  return rows[0]?.version ?? 0;
}
