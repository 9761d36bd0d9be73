// Bundles (`POST /v1/bundles`): several passes of one order behind one share
// page, one `.pkpasses` download and one Google save link.
import { SHARE_ID } from './shares.js';
import type { SqlQueryable } from './sql.js';

/** A pass of a bundle, by its keys. */
export interface BundlePass {
  readonly passTypeIdentifier: string;
  readonly serialNumber: string;
}

/** A bundle as stored. */
export interface BundleRecord {
  /** The id of its share page (`/p/{shareId}`). */
  readonly shareId: string;
  readonly passes: readonly BundlePass[];
  readonly created: Date;
}

interface BundleRow {
  share_id: string;
  passes: BundlePass[];
  created_at: Date;
}

const toBundle = (row: BundleRow): BundleRecord => ({ shareId: row.share_id, passes: row.passes, created: row.created_at });

/**
 * Stores a bundle of passes (in order); its share id is made by the database.
 *
 * @example
 * ```ts
 * const bundle = await insertBundle(db, [{ passTypeIdentifier: 'pass.com.example.seat', serialNumber: 'S-1' }]);
 * ```
 */
export async function insertBundle(sql: SqlQueryable, passes: readonly BundlePass[]): Promise<BundleRecord> {
  const rows = await sql.query<BundleRow>('insert into passmint_bundles (passes) values ($1::json) returning share_id, passes, created_at', [
    JSON.stringify(passes.map((pass) => ({ passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber }))),
  ]);
  return toBundle(rows[0]!);
}

/**
 * The bundle whose share page this is, or `undefined`.
 *
 * @example
 * ```ts
 * const bundle = await findBundle(db, 'V27t9Fkh3Yx7WquSPcuk4g');
 * ```
 */
export async function findBundle(sql: SqlQueryable, shareId: string): Promise<BundleRecord | undefined> {
  if (!SHARE_ID.test(shareId)) return undefined;
  const rows = await sql.query<BundleRow>('select share_id, passes, created_at from passmint_bundles where share_id = $1', [shareId]);
  return rows[0] === undefined ? undefined : toBundle(rows[0]);
}
