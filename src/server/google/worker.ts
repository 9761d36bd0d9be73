import { createHash } from 'node:crypto';
import { GoogleWalletError } from '../../google/error.js';
import type { GoogleWalletResourceBody } from '../../google/types.js';
import type { Pass } from '../../types.js';
import { nextRetryDelay } from '../../webhooks/retry.js';
import { mapStoredPass, type ServiceGoogleMapping } from './mapping.js';
import { changeMessages, GOOGLE_NOTIFICATIONS_PER_DAY, notificationsToday } from '../db/google-messages.js';
import type { GoogleService } from './service.js';
import { claimOwner } from '../db/claims.js';
import { isDatabaseUnavailable } from '../db/database-errors.js';
import { createQueueWorker, retryWhileUnavailable, type Worker } from '../queue/queue-worker.js';
import type { SqlDatabase } from '../db/sql.js';
import * as store from '../db/store.js';

interface JobRow {
  id: number;
  kind: 'class' | 'object';
  template_id: number | null;
  pass_type_identifier: string | null;
  serial_number: string | null;
  wanted: number;
  attempts: number;
}

interface SyncedRow {
  object_id: string;
  resource: string;
  pass: Pass | null;
  sent: GoogleWalletResourceBody | null;
  synced_at: Date | null;
}

/**
 * A patch that makes `before` into `after`: `after`'s members, and `null`
 * for each top-level member `before` had and `after` has not (Google's patch
 * clears a member given as null; left out, it would stay).
 */
function patchOf(before: GoogleWalletResourceBody, after: GoogleWalletResourceBody): GoogleWalletResourceBody {
  const cleared = Object.keys(before).filter((key) => !Object.hasOwn(after, key) && key !== 'messages');
  return { ...after, ...Object.fromEntries(cleared.map((key) => [key, null])) };
}

// What Google (or the way to it) may answer differently next time; anything else is the
// resource itself being refused, and waits for the next change instead of being retried.
const RETRYABLE = new Set(['token-failed', 'request-failed', 'timeout', 'rate-limited', 'server-error', 'bad-response']);

const retryable = (error: unknown): boolean => !(error instanceof GoogleWalletError) || RETRYABLE.has(error.code);

/**
 * Keeps Google Wallet in step with the database, through the same durable
 * queue discipline as webhooks and pushes: jobs are claimed with `FOR UPDATE
 * SKIP LOCKED` and leased, so one process at a time syncs a given class or
 * object and a killed process's claims are taken again once they expire.
 *
 * An object job reads the pass as it is now, sends its class first when the
 * template changed since the class was sent, sends the object (a patch
 * when Google has it, clearing what is gone; else an insert), then adds one `TEXT_AND_NOTIFY` message per field
 * with a `changeMessage` whose value changed since the pass Google last got —
 * at most 3 in 24 hours per object, the rest recorded as `over-limit`. A
 * deleted pass's object becomes `INACTIVE`. A class job sends the template's
 * class as its latest pass renders it. The class is sent once per template
 * version: jobs of one template wait for a send in flight, then find it done.
 */
export function createGoogleWorker(
  db: SqlDatabase,
  google: GoogleService,
  options: {
    readonly publicUrl: string | undefined;
    /** Most jobs in flight at once; default 16. */
    readonly batchSize?: number | undefined;
    readonly pollMs?: number | undefined;
    readonly leaseMs?: number | undefined;
  },
  onError: (error: unknown) => void = () => undefined,
): Worker {
  const batchSize = options.batchSize ?? 16;
  const leaseMs = options.leaseMs ?? 60_000;
  const owner = claimOwner(db);
  const mapping = { issuerId: google.issuerId, publicUrl: options.publicUrl };
  const { client } = google;

  /**
   * Sends a class or object: one sent before (`before`, its body then) is
   * patched in one call, clearing what it no longer has — or inserted after
   * all when Google has lost it; anything else is inserted (patched on 409).
   */
  const put = async (resource: ServiceGoogleMapping['objectResource'], body: GoogleWalletResourceBody, before: GoogleWalletResourceBody | undefined): Promise<void> => {
    const resourceBody = body as GoogleWalletResourceBody & { id: string };
    if (before !== undefined) {
      try {
        await client.patch(resource, resourceBody.id, patchOf(before, resourceBody));
        return;
      } catch (error) {
        if (!(error instanceof GoogleWalletError) || error.code !== 'not-found') throw error;
      }
    }
    await client.upsert(resource, resourceBody);
  };

  // The class send in flight per template: the class job and every object job of a changed
  // template want the class at once; the first sends it, the others wait and find it sent.
  const classSends = new Map<number, Promise<void>>();

  /**
   * Sends the class when the stored one is older than the template: once per
   * template version, however many jobs of the template run at the same time.
   */
  const sendClass = async (templateId: number, templateVersion: number, mapped: ServiceGoogleMapping): Promise<void> => {
    for (let running = classSends.get(templateId); running !== undefined; running = classSends.get(templateId)) {
      await running.catch(() => undefined);
    }
    const sending = sendClassNow(templateId, templateVersion, mapped);
    classSends.set(templateId, sending);
    try {
      await sending;
    } finally {
      if (classSends.get(templateId) === sending) classSends.delete(templateId);
    }
  };

  const sendClassNow = async (templateId: number, templateVersion: number, mapped: ServiceGoogleMapping): Promise<void> => {
    const rows = await db.query<{ class_id: string; template_version: number; sent: GoogleWalletResourceBody | null }>(
      'select class_id, template_version, sent from passmint_google_classes where template_id = $1',
      [templateId],
    );
    if ((rows[0]?.template_version ?? 0) >= templateVersion) return;
    await put(mapped.classResource, mapped.class, rows[0]?.class_id === mapped.classId ? (rows[0].sent ?? {}) : undefined);
    await db.query(
      `insert into passmint_google_classes (template_id, class_id, template_version, sent) values ($1, $2, $3, $4::json)
       on conflict (template_id) do update
         set class_id = excluded.class_id, sent = excluded.sent, synced_at = now(),
             template_version = greatest(passmint_google_classes.template_version, excluded.template_version)`,
      [templateId, mapped.classId, templateVersion, JSON.stringify(mapped.class)],
    );
  };

  /** The pass mapped with its template's current assets; `undefined` when the template is gone. */
  const mapPass = async (templateId: number, pass: Pass): Promise<ServiceGoogleMapping | undefined> => {
    const assets = await google.assets(db, templateId);
    return assets === undefined ? undefined : mapStoredPass(mapping, templateId, pass, assets);
  };

  const syncClass = async (templateId: number): Promise<void> => {
    const template = await store.findTemplate(db, templateId);
    if (template === undefined) return;
    const latest = await db.query<{ pass: Pass }>(
      'select pass from passmint_passes where template_id = $1 order by updated_at desc, seq desc limit 1',
      [templateId],
    );
    // No pass yet: the first pass's object job sends the class.
    const mapped = latest[0] === undefined ? undefined : await mapPass(templateId, latest[0].pass);
    if (mapped !== undefined) await sendClass(templateId, template.version, mapped);
  };

  const syncObject = async (passTypeIdentifier: string, serialNumber: string): Promise<void> => {
    const synced = (
      await db.query<SyncedRow>(
        'select object_id, resource, pass, sent, synced_at from passmint_google_objects where pass_type_identifier = $1 and serial_number = $2',
        [passTypeIdentifier, serialNumber],
      )
    )[0];
    const record = await store.findPass(db, passTypeIdentifier, serialNumber);
    if (record === undefined) {
      // Deleted: the holder's copy stays in Google Wallet, shown as no longer valid.
      if (synced?.synced_at == null) return;
      try {
        await client.patch(synced.resource as ServiceGoogleMapping['objectResource'], synced.object_id, { state: 'INACTIVE' });
      } catch (error) {
        // Google has no such object any more: nothing to mark.
        if (!(error instanceof GoogleWalletError) || error.code !== 'not-found') throw error;
      }
      return;
    }
    const template = await store.findTemplate(db, record.templateId);
    if (template === undefined) return;
    const mapped = await mapPass(record.templateId, record.pass);
    if (mapped === undefined) return;
    await sendClass(record.templateId, template.version, mapped);
    const sentBefore = synced?.synced_at != null && synced.object_id === mapped.objectId && synced.resource === mapped.objectResource;
    await put(mapped.objectResource, mapped.object, sentBefore ? (synced.sent ?? {}) : undefined);
    if (synced?.pass != null && synced.synced_at !== null) await sendMessages(mapped, synced.pass, record.pass, synced.synced_at);
    await db.query(
      `insert into passmint_google_objects (pass_type_identifier, serial_number, object_id, class_id, resource, pass, sent, synced_at)
       values ($1, $2, $3, $4, $5, $6::json, $7::json, now())
       on conflict (pass_type_identifier, serial_number) do update
         set object_id = excluded.object_id, class_id = excluded.class_id, resource = excluded.resource, pass = excluded.pass,
             sent = excluded.sent, synced_at = now()`,
      [passTypeIdentifier, serialNumber, mapped.objectId, mapped.classId, mapped.objectResource, JSON.stringify(record.pass), JSON.stringify(mapped.object)],
    );
  };

  /**
   * The messages the change since `syncedAt` owes, each with an id made of
   * that change, so a retry after a crash between sending and recording
   * sends the same message, not another.
   */
  const sendMessages = async (mapped: ServiceGoogleMapping, before: Pass, after: Pass, syncedAt: Date): Promise<void> => {
    for (const message of changeMessages(before, after)) {
      const messageId = createHash('sha256').update(`${mapped.objectId}\n${syncedAt.toISOString()}\n${message.fieldKey}`).digest('hex').slice(0, 32);
      const known = await db.query('select 1 from passmint_google_messages where message_id = $1', [messageId]);
      if (known.length > 0) continue;
      let status: 'sent' | 'over-limit' = (await notificationsToday(db, mapped.objectId)) < GOOGLE_NOTIFICATIONS_PER_DAY ? 'sent' : 'over-limit';
      if (status === 'sent') {
        try {
          await client.addMessage(mapped.objectResource, mapped.objectId, {
            id: messageId,
            header: message.header,
            body: message.body,
            messageType: 'TEXT_AND_NOTIFY',
          });
        } catch (error) {
          // Google's own count says the pass had its 3 (messages sent by something else): the update stands, the message goes.
          if (!(error instanceof GoogleWalletError) || error.code !== 'rate-limited') throw error;
          status = 'over-limit';
        }
      }
      await db.query(
        `insert into passmint_google_messages (message_id, object_id, header, body, status) values ($1, $2, $3, $4, $5)
         on conflict (message_id) do nothing`,
        [messageId, mapped.objectId, message.header, message.body, status],
      );
    }
  };

  const record = async (row: JobRow, lease: string, error: unknown): Promise<void> => {
    if (error === undefined) {
      await db.query(
        `update passmint_google_jobs set done = $2, attempts = 0, last_error = null, locked_until = null, lease = null, claimed_by = null, updated_at = now()
          where id = $1 and lease = $3`,
        [row.id, row.wanted, lease],
      );
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    if (!retryable(error)) {
      // Google refused the resource as it is: told to the operator; the next change tries again.
      onError(new Error(`Google Wallet refused the ${row.kind} of ${describe(row)}: ${message}`));
      await db.query(
        `update passmint_google_jobs set done = $2, attempts = attempts + 1, last_error = $3, locked_until = null, lease = null, claimed_by = null, updated_at = now()
          where id = $1 and lease = $4`,
        [row.id, row.wanted, message, lease],
      );
      return;
    }
    // Not Google's answer (a fault here): retried like Google's, and told to the operator.
    if (!(error instanceof GoogleWalletError)) onError(error);
    const delay = nextRetryDelay(row.attempts + 1) ?? 86_400_000;
    await db.query(
      `update passmint_google_jobs set attempts = attempts + 1, last_error = $2, locked_until = null, lease = null, claimed_by = null, updated_at = now(),
              next_attempt_at = now() + $3 * interval '1 millisecond'
        where id = $1 and lease = $4`,
      [row.id, message, delay, lease],
    );
  };

  return createQueueWorker<JobRow>({
    capacity: batchSize,
    pollMs: options.pollMs ?? 1000,
    leaseMs,
    claim: (limit, lease) =>
      db.query<JobRow>(
        `update passmint_google_jobs j set locked_until = now() + $2 * interval '1 millisecond', lease = $3, claimed_by = $4
          where j.id in (
            select id from passmint_google_jobs
             where wanted > done and next_attempt_at <= now() and (locked_until is null or locked_until < now())
             order by next_attempt_at limit $1
               for update skip locked)
         returning j.id, j.kind, j.template_id, j.pass_type_identifier, j.serial_number, j.wanted, j.attempts`,
        [limit, leaseMs, lease, owner],
      ),
    async run(row, lease, stopping) {
      let failure: unknown;
      try {
        if (row.kind === 'class') await syncClass(row.template_id!);
        else await syncObject(row.pass_type_identifier!, row.serial_number!);
      } catch (error) {
        // The database went away mid-sync: the claim runs out and the job is taken again.
        if (isDatabaseUnavailable(error)) throw error;
        failure = error ?? new Error('failed');
      }
      await retryWhileUnavailable(() => record(row, lease, failure), stopping);
    },
    async extend(claims) {
      await db.query(
        `update passmint_google_jobs j set locked_until = now() + $3 * interval '1 millisecond'
           from unnest($1::bigint[], $2::uuid[]) as c(id, lease)
          where j.id = c.id and j.lease = c.lease`,
        [claims.map((claim) => claim.job.id), claims.map((claim) => claim.lease), leaseMs],
      );
    },
    async releaseLost(keep) {
      // A claim made and its answer lost with the connection: freed now, not when its lease runs out.
      if (owner === null) return;
      await db.query(
        `update passmint_google_jobs set locked_until = null, lease = null, claimed_by = null
          where claimed_by = $1 and not (lease = any($2::uuid[]))`,
        [owner, keep],
      );
    },
    onError,
  });
}

const describe = (row: JobRow): string =>
  row.kind === 'class' ? `template ${row.template_id}` : `pass ${JSON.stringify(row.serial_number)} of type ${JSON.stringify(row.pass_type_identifier)}`;
