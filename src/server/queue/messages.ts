// The message job (`POST /v1/templates/{id}/messages`): the text goes into
// the template's field marked for messages (a `changeMessage` holding `%@`)
// of every pass the message reaches, a batch at a time — each changed pass a
// new version with its push, its Google sync and message, and `pass.updated`
// — with each batch's results, the message's cursor and the job's progress
// in the same transaction, so a pass is never done twice, even after kill -9.
import { objectIdOf } from '../../google/ids.js';
import { ServiceProblem } from '../../http/problem.js';
import type { JsonObject, Pass, PassTemplate } from '../../types.js';
import { createEvent } from '../../webhooks/event.js';
import { markPassUpdated } from '../db/devices.js';
import { queueHolderMessages } from '../db/google-messages.js';
import { queueGoogleObject } from '../db/google-sync.js';
import { addJobResults, type JobResult } from '../db/job-results.js';
import { advanceMessage, messageOfJob, type MessageRecord } from '../db/messages.js';
import { addEvents } from '../db/outbox.js';
import { lockPassPage, updatePass, type PassFilter, type PassRecord } from '../db/passes.js';
import { queuePushes } from '../db/pushes.js';
import type { SqlQueryable } from '../db/sql.js';
import { findTemplate, type TemplateRecord } from '../db/templates.js';
import { problemText, type RenderIds } from './imports.js';
import { JobFailure, type BatchOutcome, type JobRun, type JobRunner } from './jobs.js';
import { keepState } from './lifecycle.js';

/** The field of a template a message is written into, and the placeholders that carry it. */
export interface MessageField {
  readonly key: string;
  /** The placeholder that is the field's whole value: it gets the message's body. */
  readonly valuePlaceholder: string;
  /** The placeholder that is the field's whole label, if it is one: it gets the message's header. */
  readonly labelPlaceholder: string | null;
}

const STYLES = ['boardingPass', 'coupon', 'eventTicket', 'generic', 'storeCard'] as const;
const AREAS = ['headerFields', 'primaryFields', 'secondaryFields', 'auxiliaryFields', 'backFields'] as const;
const WHOLE_PLACEHOLDER = /^\$\{([^${}]+)\}$/;

/** How to mark a field for messages, as a 422's detail says it. */
export const HOW_TO_MARK: string =
  'Add a field whose value is one placeholder and whose changeMessage holds %@, e.g. ' +
  '{ "key": "message", "label": "${messageTitle}", "value": "${message}", "changeMessage": "%@" } in backFields ' +
  '(declare "message" and "messageTitle" in placeholder), then send again.';

/**
 * The field of a template marked for messages: the first (header, primary,
 * secondary, auxiliary, then back fields) whose `changeMessage` holds `%@`
 * and whose value is one placeholder; `undefined` when none is. A 422
 * `no-message-field` explains the rest.
 *
 * @example
 * ```ts
 * messageField(template); // { key: 'news', valuePlaceholder: 'news', labelPlaceholder: null }
 * ```
 */
export function messageField(template: PassTemplate): MessageField | undefined {
  const body = template.description as Record<string, unknown>;
  for (const style of STYLES) {
    const structure = body[style];
    if (structure === null || typeof structure !== 'object') continue;
    for (const area of AREAS) {
      const fields = (structure as Record<string, unknown>)[area];
      if (!Array.isArray(fields)) continue;
      for (const field of fields as unknown[]) {
        if (field === null || typeof field !== 'object') continue;
        const { key, value, label, changeMessage } = field as Record<string, unknown>;
        if (typeof key !== 'string' || typeof changeMessage !== 'string' || !changeMessage.includes('%@')) continue;
        const valuePlaceholder = typeof value === 'string' ? WHOLE_PLACEHOLDER.exec(value)?.[1] : undefined;
        if (valuePlaceholder === undefined) continue;
        const labelPlaceholder = typeof label === 'string' ? (WHOLE_PLACEHOLDER.exec(label)?.[1] ?? null) : null;
        return { key, valuePlaceholder, labelPlaceholder };
      }
    }
  }
  return undefined;
}

/** The filter a message was sent with, read back as the passes' filter (the template's passes, up to its newest). */
export function messageFilter(message: Pick<MessageRecord, 'templateId' | 'filter'>): PassFilter {
  const values = Object.entries(message.filter)
    .filter(([name]) => name.startsWith('values.'))
    .map(([name, value]) => [name.slice('values.'.length), value] as const);
  const { serialNumber, updatedSince } = message.filter;
  return {
    templateId: message.templateId,
    ...(serialNumber === undefined ? {} : { serialNumber }),
    ...(updatedSince === undefined ? {} : { updatedSince: new Date(updatedSince) }),
    ...(values.length === 0 ? {} : { values }),
  };
}

/** The id Google gets for one pass's copy of a message: the same every time it is made. */
export function googleMessageId(messageId: string, objectId: string): string {
  // Letters, digits and dashes; within Google's id limits.
  return `m-${messageId}-${objectId.length > 64 ? objectId.slice(-64) : objectId}`.replace(/[^A-Za-z0-9._-]/g, '_');
}

/** Options of {@link createMessageRunner}. */
export interface MessageRunnerOptions {
  /** Renders a pass as a `PUT …/values` does (the service's pass builder); throws a ServiceProblem for values that do not fit. */
  readonly render: (template: TemplateRecord, values: JsonObject, ids: RenderIds, origin: string) => Pass;
  /** Queue APNs pushes for changed passes. */
  readonly pushes: boolean;
  /** Google Wallet's issuer id when configured: each pass's object is synced and gets the message. */
  readonly googleIssuerId: string | undefined;
  /** Passes per batch (one transaction each); default 100. */
  readonly batchSize?: number | undefined;
}

/** Lets the requests waiting for the event loop (or, on PGlite, the one connection) go first. */
const yieldToRequests = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The message kind's runner.
 *
 * @example
 * ```ts
 * const runner = createMessageRunner({ render, pushes: true, googleIssuerId: undefined });
 * ```
 */
export function createMessageRunner(options: MessageRunnerOptions): JobRunner {
  const batchSize = options.batchSize ?? 100;

  const write = async (tx: SqlQueryable, jobSeq: number, done: number, message: MessageRecord, origin: string): Promise<BatchOutcome & { end: boolean }> => {
    const page = await lockPassPage(tx, messageFilter(message), message.lastSeq, batchSize);
    const passes = page.filter((pass) => pass.seq <= message.maxSeq);
    if (passes.length === 0) return { records: 0, created: 0, updated: 0, unchanged: 0, failed: 0, end: true };
    const templates = new Map<number, TemplateRecord | undefined>();
    const results: JobResult[] = [];
    const updated: PassRecord[] = [];
    for (const [index, current] of passes.entries()) {
      const n = done + index + 1;
      const fail = (problem: ServiceProblem): void => {
        results.push({ n, status: 'failed', serialNumber: current.serialNumber, problem: problemText(problem) });
      };
      if (current.state === 'voided') {
        fail(new ServiceProblem(409, 'pass-voided', 'The pass is voided: its values never change again.'));
        continue;
      }
      if (!templates.has(current.templateId)) templates.set(current.templateId, await findTemplate(tx, current.templateId));
      const template = templates.get(current.templateId);
      if (template === undefined) throw new JobFailure('The template was deleted.');
      const values: JsonObject = {
        ...current.values,
        [message.valuePlaceholder]: message.body,
        ...(message.labelPlaceholder === null ? {} : { [message.labelPlaceholder]: message.header }),
      };
      let pass: Pass;
      try {
        // As a PUT …/values renders it: an expired pass keeps its expirationDate.
        const rendered = options.render(
          template,
          values,
          {
            serialNumber: current.serialNumber,
            authenticationToken: current.pass.authenticationToken,
            webServiceURL: typeof current.pass.webServiceURL === 'string' ? current.pass.webServiceURL : undefined,
          },
          origin,
        );
        pass = keepState(rendered, current.state, current.pass);
      } catch (error) {
        if (!(error instanceof ServiceProblem)) throw error;
        fail(error);
        continue;
      }
      // The same text again changes nothing: no version, no push (Wallet would show nothing either).
      if (JSON.stringify(pass) === JSON.stringify(current.pass)) {
        results.push({ n, status: 'unchanged', serialNumber: current.serialNumber, problem: null });
        continue;
      }
      updated.push(await updatePass(tx, values, pass));
      results.push({ n, status: 'updated', serialNumber: current.serialNumber, problem: null });
    }
    for (const pass of updated) {
      if (options.pushes) await queuePushes(tx, pass.passTypeIdentifier, pass.serialNumber);
      if (options.googleIssuerId !== undefined) await queueGoogleObject(tx, pass.passTypeIdentifier, pass.serialNumber);
    }
    if (options.googleIssuerId !== undefined) {
      const issuerId = options.googleIssuerId;
      await queueHolderMessages(
        tx,
        updated.map((pass) => {
          const objectId = objectIdOf(issuerId, pass.passTypeIdentifier, pass.serialNumber);
          return { messageId: googleMessageId(message.id, objectId), objectId, header: message.header, body: message.body, fieldKey: message.fieldKey };
        }),
      );
    }
    // The two counters last, in the order every change takes them (update tag, then event number).
    for (const pass of updated) await markPassUpdated(tx, pass.passTypeIdentifier, pass.serialNumber);
    await addEvents(
      tx,
      updated.map((pass) => createEvent('pass.updated', { serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier })),
    );
    await addJobResults(tx, jobSeq, results);
    await advanceMessage(tx, message.seq, passes[passes.length - 1]!.seq);
    const count = (status: JobResult['status']): number => results.filter((result) => result.status === status).length;
    return {
      records: passes.length,
      created: 0,
      updated: count('updated'),
      unchanged: count('unchanged'),
      failed: count('failed'),
      end: page.length < batchSize || passes.length < page.length,
    };
  };

  return {
    async run(run: JobRun) {
      const { job } = run;
      const origin = String(job.params['origin'] ?? 'http://localhost');
      while (!run.stopping()) {
        let end = false;
        const going = await run.batch(async (tx, done) => {
          // Read under the job's lock: the cursor is the one the last committed batch left.
          const message = await messageOfJob(tx, job.id);
          if (message === undefined) throw new JobFailure('The message is gone.');
          const outcome = await write(tx, job.id, done, message, origin);
          end = outcome.end;
          return outcome;
        });
        if (!going || end) return;
        await yieldToRequests();
      }
    },
  };
}
