// Google Wallet work queued inside the caller's transaction: the change and
// the sync it owes Google commit together, so a crash loses neither.
import type { SqlQueryable } from './sql.js';

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

/** Owes Google the template's class (the template or one of its images changed). */
export async function queueGoogleClass(tx: SqlQueryable, templateId: number): Promise<void> {
  await tx.query(
    `insert into passmint_google_jobs (kind, template_id) values ('class', $1)
     on conflict (template_id) where kind = 'class' do update set ${bump}`,
    [templateId],
  );
}

/** {@link queueGoogleObject} when the service has Google Wallet; nothing otherwise. */
export async function owePassToGoogle(context: { readonly google?: unknown }, tx: SqlQueryable, passTypeIdentifier: string, serialNumber: string): Promise<void> {
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
