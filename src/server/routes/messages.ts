// Messages to holders: POST /v1/templates/{id}/messages queues a message
// job over the template's passes (or those a filter selects); GET lists the
// template's messages with their counts.
import { ServiceProblem } from '../../http/problem.js';
import { GOOGLE_NOTIFICATIONS_PER_DAY } from '../db/google-messages.js';
import { insertJob, queueJob, type JobRecord } from '../db/jobs.js';
import { countPassesUpTo, insertMessage, listMessages, newestPassSeq, passesAtGoogleLimit, type MessageRecord } from '../db/messages.js';
import { filterSql } from '../db/passes.js';
import { isObject, readJson } from '../http/body.js';
import { page, readPage } from '../http/paging.js';
import { messageField, messageFilter, HOW_TO_MARK } from '../queue/messages.js';
import { baseUrl } from './context.js';
import { defineRoute, type Route } from './define.js';
import { badPage, jsonAnswer, jsonBody, location, paging, problemAnswer } from './docs.js';
import { jobResource } from './jobs.js';
import { readPassQuery } from './pass-query.js';
import { json } from './responses.js';
import { page as pageOf, ref } from './schemas.js';

/** Longest header and body a message may have (Google's own limits are larger; a lock screen shows far less). */
export const MAX_MESSAGE_HEADER = 200;
export const MAX_MESSAGE_BODY = 1000;

/** The filter members a message takes: those of GET /v1/passes, less paging and the template. */
const FILTER_NAMES = new Set(['serialNumber', 'updatedSince']);

interface MessageInput {
  readonly header: string;
  readonly body: string;
  readonly filter: Readonly<Record<string, string>>;
}

const invalid = (detail: string): ServiceProblem => new ServiceProblem(422, 'invalid-body', detail);

/** A message's body checked: `header` and `body` text of their lengths, `filter` the list's filters. */
function messageInput(body: unknown, placeholders: readonly string[]): MessageInput {
  if (!isObject(body)) throw invalid('A message is a JSON object: { "header": …, "body": …, "filter"?: { … } }.');
  for (const name of Object.keys(body)) {
    if (name !== 'header' && name !== 'body' && name !== 'filter') throw invalid(`/${name}: unknown member (a message has header, body and filter).`);
  }
  const text = (name: 'header' | 'body', max: number): string => {
    const value = body[name];
    if (typeof value !== 'string' || value.trim() === '') throw invalid(`/${name}: a non-empty string is required.`);
    if (value.length > max) throw invalid(`/${name}: at most ${max} characters.`);
    // PostgreSQL's text holds no NUL (and Wallet shows none).
    if (value.includes('\u0000')) throw invalid(`/${name}: a NUL character cannot be sent.`);
    return value;
  };
  const header = text('header', MAX_MESSAGE_HEADER);
  const message = text('body', MAX_MESSAGE_BODY);
  const filter: Record<string, string> = {};
  if (body['filter'] !== undefined) {
    if (!isObject(body['filter'])) throw invalid('/filter: an object of the filters of GET /v1/passes, e.g. { "values.tier": "gold" }.');
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(body['filter'])) {
      if (typeof value !== 'string') throw invalid(`/filter/${name}: a string is required.`);
      if (!name.startsWith('values.') && !FILTER_NAMES.has(name)) {
        throw invalid(`/filter/${name}: unknown filter (filter with values.NAME, serialNumber or updatedSince).`);
      }
      if (name.startsWith('values.') && !placeholders.includes(name.slice('values.'.length))) {
        throw invalid(`/filter/${name}: the template has no placeholder ${JSON.stringify(name.slice('values.'.length))}.`);
      }
      query.append(name, value);
      filter[name] = value;
    }
    try {
      // As the pass list reads its query; the time kept as the instant it was read as.
      const since = readPassQuery(new URL(`http://filter/?${query}`), false).filter.updatedSince;
      if (since !== undefined) filter['updatedSince'] = since.toISOString();
    } catch (error) {
      if (error instanceof ServiceProblem) throw invalid(`/filter: ${error.detail}`);
      throw error;
    }
  }
  return { header, body: message, filter };
}

/**
 * A message as the API shows it.
 *
 * @example
 * ```ts
 * messageResource(message, job, true);
 * ```
 */
function messageResource(message: MessageRecord, job: Record<string, unknown> | null, google: boolean): Record<string, unknown> {
  return {
    id: message.id,
    templateId: message.templateId,
    header: message.header,
    body: message.body,
    filter: message.filter,
    field: message.fieldKey,
    passes: message.passes,
    google: google ? { notify: message.googleNotify, text: message.passes - message.googleNotify } : null,
    job,
    created: message.created.toISOString(),
  };
}

/** Messages to a template's holders. */
export const messageRoutes: readonly Route[] = [
  defineRoute({
    method: 'POST',
    path: '/v1/templates/{id}/messages',
    auth: 'passes',
    summary: "Send a message to a template's holders",
    description:
      "Queues a job (kind `message`, `GET /v1/jobs/{id}`) over the template's passes, or those `filter` selects (the search filters of `GET /v1/passes`). " +
      "Apple: `body` becomes the value of the template's field marked for messages — the first field whose value is one placeholder and whose `changeMessage` holds `%@` — " +
      '(`header` its label, when the label is a placeholder): each pass gets a new version and a push, and Wallet shows the changeMessage on the lock screen. ' +
      "Google Wallet: each pass's object gets the message, as `TEXT_AND_NOTIFY` while Google's three notifications per pass in 24 hours allow, as `TEXT` after; `google.notify` says how many will notify. " +
      'A voided pass is left as it is (`pass-voided` in the results).',
    body: jsonBody(ref('MessageRequest')),
    responses: {
      202: jsonAnswer(ref('Message'), 'The message, and its job, queued.', location),
      404: problemAnswer('No such template.'),
      422: problemAnswer(
        'The template has no field marked for messages (`no-message-field`: the detail says how to add one), or a bad header, body or filter (`invalid-body`, naming the member).',
      ),
    },
    handler: async ({ request, params }, { context, db, templates }) => {
      const template = await templates.fresh(params.id);
      const input = messageInput(await readJson(request, context.maxBodyBytes), template.template.placeholder);
      const field = messageField(template.template);
      if (field === undefined) throw new ServiceProblem(422, 'no-message-field', `Template ${template.template.id} has no field for messages. ${HOW_TO_MARK}`);
      const origin = baseUrl(context, request);
      const templateId = template.template.id;
      const { conditions, params: sqlParams } = filterSql(messageFilter({ templateId, filter: input.filter }));
      const { message, job } = await db.transaction(async (tx) => {
        const maxSeq = await newestPassSeq(tx);
        const passes = await countPassesUpTo(tx, conditions, sqlParams, maxSeq);
        const atLimit = context.google === undefined ? 0 : await passesAtGoogleLimit(tx, conditions, sqlParams, maxSeq, GOOGLE_NOTIFICATIONS_PER_DAY);
        const { seq } = await insertJob(tx, 'message', templateId, { origin });
        const stored = await insertMessage(tx, {
          templateId,
          jobSeq: seq,
          header: input.header,
          body: input.body,
          filter: input.filter,
          fieldKey: field.key,
          valuePlaceholder: field.valuePlaceholder,
          labelPlaceholder: field.labelPlaceholder,
          maxSeq,
          passes,
          googleNotify: passes - atLimit,
        });
        const queued: JobRecord = await queueJob(tx, seq, passes, { origin, messageId: stored.id });
        return { message: stored, job: queued };
      });
      context.notify();
      return json(messageResource(message, jobResource(job), context.google !== undefined), 202, { location: `${origin}/v1/jobs/${job.id}` });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/templates/{id}/messages',
    auth: 'read',
    summary: "A template's messages to holders",
    description:
      "Newest first unless read `after` a cursor: each message with the passes it reaches, how many Google notifies, and its job's state and counts.",
    query: paging,
    responses: {
      200: jsonAnswer(pageOf('Message'), 'A page of messages.'),
      400: badPage,
      404: problemAnswer('No such template.'),
    },
    handler: async ({ params, url }, { context, db, templates }) => {
      const template = await templates.fresh(params.id);
      const query = readPage(url, 'before');
      const items = await listMessages(db, template.template.id, query);
      return json(
        page(
          items,
          query,
          (item) => item.seq,
          (item) => messageResource(item, item.job === null ? null : { ...item.job }, context.google !== undefined),
        ),
      );
    },
  }),
];
