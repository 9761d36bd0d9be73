// Google Wallet sync: the jobs (a kind of queued work, see queue.ts) queued
// inside the caller's transaction — the change and the sync it owes Google
// commit together, so a crash loses neither — and the classes and objects
// as Google was last sent them.
import type { GoogleWalletResourceBody } from '../../google/types.js';
import type { Pass } from '../../types.js';
import { complete, fail, type QueueKind } from './queue.js';
import type { SqlQueryable } from './sql.js';

/**
 * Google syncs as queued work: one row per class or object, owed while
 * `wanted` (bumped by every change) is ahead of `done`; oldest due first.
 */
export const GOOGLE_SYNCS: QueueKind = {
  table: 'passmint_google_jobs',
  claimable: 'c.wanted > c.done and c.next_attempt_at <= now()',
  order: 'c.next_attempt_at',
  // A claim lives only on a job still owed (every outcome frees it): what the owed jobs' index serves.
  held: 'wanted > done',
  returning: 'q.id, q.kind, q.template_id, q.pass_type_identifier, q.serial_number, q.wanted, q.attempts',
};

/** A claimed sync: a template's class, or a pass's object. */
export interface ClaimedSync {
  readonly id: number;
  readonly kind: 'class' | 'object';
  readonly template_id: number | null;
  readonly pass_type_identifier: string | null;
  readonly serial_number: string | null;
  /** The change count it syncs up to: recorded as done when it succeeds. */
  readonly wanted: number;
  readonly attempts: number;
}

// A job idle until now (done caught up with wanted) is due at once, with a fresh retry count;
// one already waiting keeps its schedule (Google may be answering 429 to it).
const bump = `wanted = passmint_google_jobs.wanted + 1,
  next_attempt_at = case when passmint_google_jobs.done >= passmint_google_jobs.wanted then now() else passmint_google_jobs.next_attempt_at end,
  attempts = case when passmint_google_jobs.done >= passmint_google_jobs.wanted then 0 else passmint_google_jobs.attempts end,
  updated_at = now()`;

/**
 * Owes Google the pass's object (and its class, when the template changed
 * since the class was last sent): one job row per pass, bumped by every
 * change, so changes made while a sync runs are synced again after it.
 */
export async function queueGoogleObject(tx: SqlQueryable, passTypeIdentifier: string, serialNumber: string): Promise<void> {
  await tx.query(
    `insert into passmint_google_jobs (kind, pass_type_identifier, serial_number) values ('object', $1, $2)
     on conflict (pass_type_identifier, serial_number) where kind = 'object' do update set ${bump}`,
    [passTypeIdentifier, serialNumber],
  );
}

/**
 * {@link queueGoogleObject} for many passes, in one statement (each pass
 * once in `keys`).
 *
 * @example
 * ```ts
 * await queueGoogleObjects(tx, [{ passTypeIdentifier: 'pass.com.example', serialNumber: 'M-1' }]);
 * ```
 */
export async function queueGoogleObjects(
  tx: SqlQueryable,
  keys: readonly { readonly passTypeIdentifier: string; readonly serialNumber: string }[],
): Promise<void> {
  if (keys.length === 0) return;
  await tx.query(
    `insert into passmint_google_jobs (kind, pass_type_identifier, serial_number)
     select 'object', x.type, x.serial from unnest($1::text[], $2::text[]) as x(type, serial) order by x.type, x.serial
     on conflict (pass_type_identifier, serial_number) where kind = 'object' do update set ${bump}`,
    [keys.map((key) => key.passTypeIdentifier), keys.map((key) => key.serialNumber)],
  );
}

/** Owes Google the template's class (the template or one of its images changed). */
export async function queueGoogleClass(tx: SqlQueryable, templateId: number): Promise<void> {
  await tx.query(
    `insert into passmint_google_jobs (kind, template_id) values ('class', $1)
     on conflict (template_id) where kind = 'class' do update set ${bump}`,
    [templateId],
  );
}

/** {@link queueGoogleObject} when the service has Google Wallet; nothing otherwise. */
export async function owePassToGoogle(
  context: { readonly google?: unknown },
  tx: SqlQueryable,
  passTypeIdentifier: string,
  serialNumber: string,
): Promise<void> {
  if (context.google !== undefined) await queueGoogleObject(tx, passTypeIdentifier, serialNumber);
}

/** {@link queueGoogleClass} when the service has Google Wallet; nothing otherwise. */
export async function oweClassToGoogle(context: { readonly google?: unknown }, tx: SqlQueryable, templateId: number): Promise<void> {
  if (context.google !== undefined) await queueGoogleClass(tx, templateId);
}

/**
 * A template file changed: its class and every object made from it are owed
 * (objects carry images too — the hero image, a generic pass's logo — whose
 * addresses name their content, so every one of them changes).
 */
export async function oweTemplateFilesToGoogle(context: { readonly google?: unknown }, tx: SqlQueryable, templateId: number): Promise<void> {
  if (context.google === undefined) return;
  await queueGoogleClass(tx, templateId);
  await tx.query(
    `insert into passmint_google_jobs (kind, pass_type_identifier, serial_number)
     select 'object', pass_type_identifier, serial_number from passmint_passes where template_id = $1
     on conflict (pass_type_identifier, serial_number) where kind = 'object' do update set ${bump}`,
    [templateId],
  );
}

/**
 * Records a sync that succeeded up to `wanted` (a change made meanwhile
 * bumped `wanted` again and keeps it owed); only the holder of `lease` may.
 *
 * @example
 * ```ts
 * await syncDone(db, job.id, job.wanted, lease);
 * ```
 */
export async function syncDone(sql: SqlQueryable, id: number, wanted: number, lease: string): Promise<void> {
  await complete(sql, GOOGLE_SYNCS, id, { set: 'done = $2, attempts = 0, last_error = null, updated_at = now()', params: [wanted] }, lease);
}

/**
 * Records a sync Google refused as it is: done up to `wanted` (the next
 * change tries again), the refusal kept; only the holder of `lease` may.
 *
 * @example
 * ```ts
 * await syncRefused(db, job.id, job.wanted, 'invalid-resource: …', lease);
 * ```
 */
export async function syncRefused(sql: SqlQueryable, id: number, wanted: number, error: string, lease: string): Promise<void> {
  await complete(sql, GOOGLE_SYNCS, id, { set: 'done = $2, attempts = attempts + 1, last_error = $3, updated_at = now()', params: [wanted, error] }, lease);
}

/**
 * Schedules a failed sync's next attempt in `delayMs`; only the holder of `lease` may.
 *
 * @example
 * ```ts
 * await retrySync(db, job.id, 'timeout', 5000, lease);
 * ```
 */
export async function retrySync(sql: SqlQueryable, id: number, error: string, delayMs: number, lease: string): Promise<void> {
  await fail(sql, GOOGLE_SYNCS, id, { set: 'attempts = attempts + 1, last_error = $2, updated_at = now()', params: [error] }, delayMs, lease);
}

/** A template's class as Google was last sent it. */
export interface SentClass {
  readonly class_id: string;
  /** The template's version it was rendered from. */
  readonly template_version: number;
  /** The body sent (a later patch clears what it no longer has). */
  readonly sent: GoogleWalletResourceBody | null;
}

/**
 * The class last sent for a template, or `undefined`.
 *
 * @example
 * ```ts
 * const sent = await findSentClass(db, templateId);
 * ```
 */
export async function findSentClass(sql: SqlQueryable, templateId: number): Promise<SentClass | undefined> {
  const rows = await sql.query<SentClass>('select class_id, template_version, sent from passmint_google_classes where template_id = $1', [templateId]);
  return rows[0];
}

/**
 * Records the class sent for a template (the version recorded never moves back).
 *
 * @example
 * ```ts
 * await saveSentClass(db, templateId, classId, 4, body);
 * ```
 */
export async function saveSentClass(
  sql: SqlQueryable,
  templateId: number,
  classId: string,
  templateVersion: number,
  sent: GoogleWalletResourceBody,
): Promise<void> {
  await sql.query(
    `insert into passmint_google_classes (template_id, class_id, template_version, sent) values ($1, $2, $3, $4::json)
       on conflict (template_id) do update
         set class_id = excluded.class_id, sent = excluded.sent, synced_at = now(),
             template_version = greatest(passmint_google_classes.template_version, excluded.template_version)`,
    [templateId, classId, templateVersion, JSON.stringify(sent)],
  );
}

/** A pass's object as Google was last sent it (`synced_at` null: its save link was made, nothing sent yet). */
export interface SentObject {
  readonly object_id: string;
  readonly resource: string;
  /** The pass it was rendered from (a later change's messages compare with it). */
  readonly pass: Pass | null;
  readonly sent: GoogleWalletResourceBody | null;
  readonly synced_at: Date | null;
}

/**
 * The object last sent for a pass, or `undefined`.
 *
 * @example
 * ```ts
 * const sent = await findSentObject(db, 'pass.com.example', 'A-1');
 * ```
 */
export async function findSentObject(sql: SqlQueryable, passTypeIdentifier: string, serialNumber: string): Promise<SentObject | undefined> {
  const rows = await sql.query<SentObject>(
    'select object_id, resource, pass, sent, synced_at from passmint_google_objects where pass_type_identifier = $1 and serial_number = $2',
    [passTypeIdentifier, serialNumber],
  );
  return rows[0];
}

/** An object as sent to Google, as {@link saveSentObject} records it. */
export interface ObjectSent {
  readonly objectId: string;
  readonly classId: string;
  readonly resource: string;
  readonly pass: Pass;
  readonly sent: GoogleWalletResourceBody;
}

/**
 * Records the object sent for a pass, synced now.
 *
 * @example
 * ```ts
 * await saveSentObject(db, 'pass.com.example', 'A-1', { objectId, classId, resource: 'genericObject', pass, sent: body });
 * ```
 */
export async function saveSentObject(sql: SqlQueryable, passTypeIdentifier: string, serialNumber: string, object: ObjectSent): Promise<void> {
  await sql.query(
    `insert into passmint_google_objects (pass_type_identifier, serial_number, object_id, class_id, resource, pass, sent, synced_at)
       values ($1, $2, $3, $4, $5, $6::json, $7::json, now())
       on conflict (pass_type_identifier, serial_number) do update
         set object_id = excluded.object_id, class_id = excluded.class_id, resource = excluded.resource, pass = excluded.pass,
             sent = excluded.sent, synced_at = now()`,
    [passTypeIdentifier, serialNumber, object.objectId, object.classId, object.resource, JSON.stringify(object.pass), JSON.stringify(object.sent)],
  );
}
