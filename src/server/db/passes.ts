// Passes as rows, and the pushes a change queues.
import type { JsonObject, Pass } from '../../types.js';
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
}

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
}

const passColumns = 'pass_type_identifier, serial_number, template_id, pass_values, pass, version, created_at, updated_at, seq';

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
  ...(row.template_version === undefined || row.template_version === null ? {} : { templateVersion: row.template_version }),
});

/** Inserts a pass; `undefined` when one with its serial number already exists. */
export async function insertPass(sql: SqlQueryable, templateId: number, values: JsonObject, pass: Pass): Promise<PassRecord | undefined> {
  const rows = await sql.query<PassRow>(
    `insert into passmint_passes (pass_type_identifier, serial_number, template_id, pass_values, pass)
     values ($1, $2, $3, $4::json, $5::json)
     on conflict (pass_type_identifier, serial_number) do nothing
     returning ${passColumns}`,
    [pass.passTypeIdentifier, pass.serialNumber, templateId, JSON.stringify(values), JSON.stringify(pass)],
  );
  return rows[0] === undefined ? undefined : toPass(rows[0]);
}

export async function findPass(
  sql: SqlQueryable,
  passTypeIdentifier: string,
  serialNumber: string,
  lock = false,
): Promise<PassRecord | undefined> {
  const rows = await sql.query<PassRow>(
    `select ${passColumns}, (select t.version from passmint_templates t where t.id = passmint_passes.template_id) as template_version
       from passmint_passes where pass_type_identifier = $1 and serial_number = $2${lock ? ' for update of passmint_passes' : ''}`,
    [passTypeIdentifier, serialNumber],
  );
  return rows[0] === undefined ? undefined : toPass(rows[0]);
}

/** A page of passes in creation order (see {@link keysetPage}), of one template or all. */
export async function listPasses(sql: SqlQueryable, query: PageQuery, templateId?: number): Promise<PassRecord[]> {
  const page = keysetPage('seq', query, 2);
  const rows = await sql.query<PassRow>(`select ${passColumns} from passmint_passes where ($1::int is null or template_id = $1) and ${page.sql}`, [
    templateId ?? null,
    ...page.params,
  ]);
  return rows.map(toPass);
}

export async function updatePass(sql: SqlQueryable, values: JsonObject, pass: Pass): Promise<PassRecord> {
  const rows = await sql.query<PassRow>(
    `update passmint_passes set pass_values = $3::json, pass = $4::json, version = version + 1, updated_at = now()
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
  await sql.query('delete from passmint_wallet_registrations where pass_type_identifier = $1 and serial_number = $2', [
    passTypeIdentifier,
    serialNumber,
  ]);
  return true;
}

/** Queues one APNs push per distinct device token registered for the pass. */
export async function queuePushes(sql: SqlQueryable, passTypeIdentifier: string, serialNumber: string): Promise<void> {
  await sql.query(
    `insert into passmint_pushes (push_token, topic, status)
     select distinct push_token, pass_type_identifier, 'pending' from passmint_wallet_registrations
      where pass_type_identifier = $1 and serial_number = $2`,
    [passTypeIdentifier, serialNumber],
  );
}
