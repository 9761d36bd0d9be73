// Look-ups that answer 404: each gives the record itself, never `undefined`.
import type { ServiceProblemCode } from '../../http/problem.js';
import { findApiKey, type ApiKeyRecord } from '../db/keys.js';
import type { SqlQueryable } from '../db/sql.js';
import * as store from '../db/store.js';
import { isUuid, templateIdOf } from '../http/paging.js';
import { ServiceProblem } from '../../http/problem.js';

/** The codes of a 404 for a missing record. */
type NotFoundCode = Extract<ServiceProblemCode, `${string}-not-found`>;

/**
 * The record a look-up found, or a 404 problem with `code` and `detail`.
 *
 * @example
 * ```ts
 * const pass = await found(store.findPass(db, type, serial), 'pass-not-found', `No pass ${JSON.stringify(serial)} exists.`);
 * ```
 */
export async function found<TRecord>(lookup: TRecord | undefined | PromiseLike<TRecord | undefined>, code: NotFoundCode, detail: string): Promise<TRecord> {
  const record = await lookup;
  if (record === undefined) throw new ServiceProblem(404, code, detail);
  return record;
}

/**
 * The 404 detail for a pass.
 *
 * @example
 * ```ts
 * noPass('pass.com.example.member', 'M-1'); // 'No pass "M-1" of type "pass.com.example.member" exists.'
 * ```
 */
export const noPass = (passTypeIdentifier: string, serialNumber: string): string =>
  `No pass ${JSON.stringify(serialNumber)} of type ${JSON.stringify(passTypeIdentifier)} exists.`;

/**
 * A pass by its two identifiers; 404 `pass-not-found`.
 *
 * @example
 * ```ts
 * const pass = await passOf(db, params.type, params.serial);
 * ```
 */
export const passOf = (db: SqlQueryable, passTypeIdentifier: string, serialNumber: string): Promise<store.PassRecord> =>
  found(store.findPass(db, passTypeIdentifier, serialNumber), 'pass-not-found', noPass(passTypeIdentifier, serialNumber));

/**
 * A template by its id as the path gives it; 404 `template-not-found` (a text that is no id included).
 *
 * @example
 * ```ts
 * const template = await templateOf(db, params.id);
 * ```
 */
export const templateOf = (db: SqlQueryable, text: string): Promise<store.TemplateRecord> => {
  const id = templateIdOf(text);
  return found(id === undefined ? undefined : store.findTemplate(db, id), 'template-not-found', `No template ${JSON.stringify(text)} exists.`);
};

/**
 * A webhook registration by id; 404 `webhook-not-found`.
 *
 * @example
 * ```ts
 * const webhook = await webhookOf(db, params.id);
 * ```
 */
export const webhookOf = (db: SqlQueryable, id: string): Promise<store.WebhookRecord> =>
  found(isUuid(id) ? store.findWebhook(db, id) : undefined, 'webhook-not-found', `No webhook registration ${JSON.stringify(id)} exists.`);

/**
 * An event by id; 404 `event-not-found`.
 *
 * @example
 * ```ts
 * const event = await eventOf(db, params.id);
 * ```
 */
export const eventOf = (db: SqlQueryable, id: string): Promise<store.EventRecord> =>
  found(isUuid(id) ? store.findEvent(db, id) : undefined, 'event-not-found', `No event ${JSON.stringify(id)} exists.`);

/**
 * An active API key's record by id; 404 `key-not-found`.
 *
 * @example
 * ```ts
 * const key = await keyOf(db, params.id);
 * ```
 */
export const keyOf = (db: SqlQueryable, id: string): Promise<ApiKeyRecord> =>
  found(findApiKey(db, id), 'key-not-found', `No active API key ${JSON.stringify(id)} exists.`);
