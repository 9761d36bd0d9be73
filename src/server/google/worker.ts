import { createHash } from 'node:crypto';
import { GoogleWalletError } from '../../google/error.js';
import type { GoogleWalletResourceBody } from '../../google/types.js';
import type { Pass } from '../../types.js';
import { nextRetryDelay } from '../../webhooks/retry.js';
import { isDatabaseUnavailable } from '../db/database-errors.js';
import {
  changeMessages,
  GOOGLE_NOTIFICATIONS_PER_DAY,
  holderMessageFields,
  holderMessageSent,
  messageRecorded,
  notificationsToday,
  queuedHolderMessages,
  recordMessage,
} from '../db/google-messages.js';
import {
  findSentClass,
  findSentObject,
  GOOGLE_SYNCS,
  retrySync,
  saveSentClass,
  saveSentObject,
  syncDone,
  syncRefused,
  type ClaimedSync,
} from '../db/google-sync.js';
import { findPass, latestPassOfTemplate } from '../db/passes.js';
import type { SqlDatabase } from '../db/sql.js';
import { findTemplate } from '../db/templates.js';
import { createQueue } from '../queue/queue.js';
import { retryWhileUnavailable, type Worker } from '../queue/queue-worker.js';
import { mapStoredPass, type ServiceGoogleMapping } from './mapping.js';
import type { GoogleService } from './service.js';

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
  const mapping = { issuerId: google.issuerId, publicUrl: options.publicUrl };
  const { client } = google;

  /**
   * Sends a class or object: one sent before (`before`, its body then) is
   * patched in one call, clearing what it no longer has — or inserted after
   * all when Google has lost it; anything else is inserted (patched on 409).
   */
  const put = async (
    resource: ServiceGoogleMapping['objectResource'],
    body: GoogleWalletResourceBody,
    before: GoogleWalletResourceBody | undefined,
  ): Promise<void> => {
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
    const sent = await findSentClass(db, templateId);
    if ((sent?.template_version ?? 0) >= templateVersion) return;
    await put(mapped.classResource, mapped.class, sent?.class_id === mapped.classId ? (sent.sent ?? {}) : undefined);
    await saveSentClass(db, templateId, mapped.classId, templateVersion, mapped.class);
  };

  /** The pass mapped with its template's current assets; `undefined` when the template is gone. */
  const mapPass = async (templateId: number, pass: Pass): Promise<ServiceGoogleMapping | undefined> => {
    const assets = await google.assets(db, templateId);
    return assets === undefined ? undefined : mapStoredPass(mapping, templateId, pass, assets);
  };

  const syncClass = async (templateId: number): Promise<void> => {
    const template = await findTemplate(db, templateId);
    if (template === undefined) return;
    const latest = await latestPassOfTemplate(db, templateId);
    // No pass yet: the first pass's object job sends the class.
    const mapped = latest === undefined ? undefined : await mapPass(templateId, latest);
    if (mapped !== undefined) await sendClass(templateId, template.version, mapped);
  };

  const syncObject = async (passTypeIdentifier: string, serialNumber: string): Promise<void> => {
    const synced = await findSentObject(db, passTypeIdentifier, serialNumber);
    const record = await findPass(db, passTypeIdentifier, serialNumber);
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
    const template = await findTemplate(db, record.templateId);
    if (template === undefined) return;
    const mapped = await mapPass(record.templateId, record.pass);
    if (mapped === undefined) return;
    await sendClass(record.templateId, template.version, mapped);
    const sentBefore = synced?.synced_at != null && synced.object_id === mapped.objectId && synced.resource === mapped.objectResource;
    await put(mapped.objectResource, mapped.object, sentBefore ? (synced.sent ?? {}) : undefined);
    if (synced?.pass != null && synced.synced_at !== null) await sendMessages(mapped, synced.pass, record.pass, synced.synced_at);
    await sendHolderMessages(mapped);
    await saveSentObject(db, passTypeIdentifier, serialNumber, {
      objectId: mapped.objectId,
      classId: mapped.classId,
      resource: mapped.objectResource,
      pass: record.pass,
      sent: mapped.object,
    });
  };

  /**
   * The messages the change since `syncedAt` owes, each with an id made of
   * that change, so a retry after a crash between sending and recording
   * sends the same message, not another.
   */
  const sendMessages = async (mapped: ServiceGoogleMapping, before: Pass, after: Pass, syncedAt: Date): Promise<void> => {
    // A field a message to holders was written into announces that message (sendHolderMessages), not its change.
    const announced = await holderMessageFields(db, mapped.objectId, syncedAt);
    for (const message of changeMessages(before, after)) {
      if (announced.has(message.fieldKey)) continue;
      const messageId = createHash('sha256').update(`${mapped.objectId}\n${syncedAt.toISOString()}\n${message.fieldKey}`).digest('hex').slice(0, 32);
      if (await messageRecorded(db, messageId)) continue;
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
      await recordMessage(db, messageId, mapped.objectId, message, status);
    }
  };

  /**
   * The messages to holders queued for the object (POST /v1/templates/{id}/messages), oldest
   * first: `TEXT_AND_NOTIFY` while the object had fewer than 3 notifications in 24 hours (and
   * Google agrees), `TEXT` after — shown on the pass without a notification. Each keeps its id,
   * so one sent before a crash and sent again is the same message.
   */
  const sendHolderMessages = async (mapped: ServiceGoogleMapping): Promise<void> => {
    for (const message of await queuedHolderMessages(db, mapped.objectId)) {
      const send = async (messageType: 'TEXT_AND_NOTIFY' | 'TEXT'): Promise<void> => {
        try {
          await client.addMessage(mapped.objectResource, mapped.objectId, { id: message.messageId, header: message.header, body: message.body, messageType });
        } catch (error) {
          // Sent before a crash, not recorded: Google has it.
          if (!(error instanceof GoogleWalletError) || error.code !== 'conflict') throw error;
        }
      };
      let status: 'sent' | 'text' = (await notificationsToday(db, mapped.objectId)) < GOOGLE_NOTIFICATIONS_PER_DAY ? 'sent' : 'text';
      if (status === 'sent') {
        try {
          await send('TEXT_AND_NOTIFY');
        } catch (error) {
          // Google's own count says the pass had its 3 today: sent as text.
          if (!(error instanceof GoogleWalletError) || error.code !== 'rate-limited') throw error;
          status = 'text';
        }
      }
      if (status === 'text') await send('TEXT');
      await holderMessageSent(db, message.id, status);
    }
  };

  const record = async (row: ClaimedSync, lease: string, error: unknown): Promise<void> => {
    if (error === undefined) {
      await syncDone(db, row.id, row.wanted, lease);
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    if (!retryable(error)) {
      // Google refused the resource as it is: told to the operator; the next change tries again.
      onError(new Error(`Google Wallet refused the ${row.kind} of ${describe(row)}: ${message}`));
      await syncRefused(db, row.id, row.wanted, message, lease);
      return;
    }
    // Not Google's answer (a fault here): retried like Google's, and told to the operator.
    if (!(error instanceof GoogleWalletError)) onError(error);
    await retrySync(db, row.id, message, nextRetryDelay(row.attempts + 1) ?? 86_400_000, lease);
  };

  return createQueue<ClaimedSync>(db, {
    kind: GOOGLE_SYNCS,
    capacity: options.batchSize ?? 16,
    pollMs: options.pollMs ?? 1000,
    leaseMs: options.leaseMs ?? 60_000,
    async run(row, { lease, stopping }) {
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
    onError,
  });
}

const describe = (row: ClaimedSync): string =>
  row.kind === 'class' ? `template ${row.template_id}` : `pass ${JSON.stringify(row.serial_number)} of type ${JSON.stringify(row.pass_type_identifier)}`;
