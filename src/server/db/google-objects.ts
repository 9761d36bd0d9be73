// The Google Wallet objects the service issued (passmint_google_objects), as
// the save link and Google's callbacks read and write them, and the template
// images Google fetches.
import type { SqlQueryable } from './sql.js';

/** An object the service issued for a pass: its ids and the resource sent to Google. */
export interface GoogleObject {
  readonly passTypeIdentifier: string;
  readonly serialNumber: string;
  readonly objectId: string;
  readonly classId: string;
  readonly resource: unknown;
}

/**
 * Records the object a pass's save link names (once: a later call changes
 * nothing), so a save callback about it finds the pass.
 *
 * @example
 * ```ts
 * await recordGoogleObject(db, { passTypeIdentifier, serialNumber, objectId, classId, resource: mapped.objectResource });
 * ```
 */
export async function recordGoogleObject(sql: SqlQueryable, object: GoogleObject): Promise<void> {
  await sql.query(
    `insert into passmint_google_objects (pass_type_identifier, serial_number, object_id, class_id, resource)
     values ($1, $2, $3, $4, $5) on conflict do nothing`,
    [object.passTypeIdentifier, object.serialNumber, object.objectId, object.classId, object.resource],
  );
}

/**
 * The pass an object id names, with the class the object was issued in;
 * `undefined` for an object this service never issued.
 *
 * @example
 * ```ts
 * const pass = await passOfGoogleObject(tx, message.objectId);
 * if (pass !== undefined && pass.classId !== message.classId) refuse();
 * ```
 */
export async function passOfGoogleObject(
  sql: SqlQueryable,
  objectId: string,
): Promise<{ readonly passTypeIdentifier: string; readonly serialNumber: string; readonly classId: string } | undefined> {
  const rows = await sql.query<{ pass_type_identifier: string; serial_number: string; class_id: string }>(
    'select pass_type_identifier, serial_number, class_id from passmint_google_objects where object_id = $1',
    [objectId],
  );
  const row = rows[0];
  return row === undefined ? undefined : { passTypeIdentifier: row.pass_type_identifier, serialNumber: row.serial_number, classId: row.class_id };
}

/**
 * Whether a pass's object is at Google (inserted by the queue).
 *
 * @example
 * ```ts
 * if (!(await isGoogleObjectSynced(db, type, serial))) await queueGoogleObject(db, type, serial);
 * ```
 */
export async function isGoogleObjectSynced(sql: SqlQueryable, passTypeIdentifier: string, serialNumber: string): Promise<boolean> {
  const rows = await sql.query('select 1 from passmint_google_objects where pass_type_identifier = $1 and serial_number = $2 and synced_at is not null', [
    passTypeIdentifier,
    serialNumber,
  ]);
  return rows.length > 0;
}

/**
 * The bytes of a template's file, for Google to fetch as an image; `undefined` when there is none.
 *
 * @example
 * ```ts
 * const bytes = await googleImageBytes(db, 7, 'logo.png');
 * ```
 */
export async function googleImageBytes(sql: SqlQueryable, templateId: number, path: string): Promise<Uint8Array | undefined> {
  const rows = await sql.query<{ bytes: Uint8Array }>('select bytes from passmint_template_files where template_id = $1 and path = $2', [templateId, path]);
  return rows[0]?.bytes;
}
