import { createPassHandler, type PassHandler } from '../../http/handler.js';
import { PackError } from '../../pkpass/pack-error.js';
import { packPass } from '../../pkpass/pack.js';
import { MAX_DEPTH } from '../../template/json.js';
import { validateTemplate } from '../../template/validate.js';
import type { JsonObject, PassTemplate } from '../../types.js';
import { MAX_IDENTIFIER_LENGTH } from '../../wallet/identifiers.js';
import { verifyEndpoint } from '../../webhooks/handshake.js';
import { isObject, nestedDeeperThan } from '../http/body.js';
import { BytesResponse } from '../http/bytes-response.js';
import { baseUrl, type ServiceContext } from '../context.js';
import { createPassBuilder, type PassBuilder } from '../build/pass-builder.js';
import { filesFor } from '../wallet/personalize.js';
import { createEventBatch, type EventBatch } from '../db/event-batch.js';
import { createPassBatch, type PassBatch } from '../db/pass-batch.js';
import { createPkpassCache, signerId } from '../build/pkpass-cache.js';
import { createPublicGuard, type PublicGuard } from '../http/public-guard.js';
import { ServiceProblem } from '../http/problem.js';
import { isUuid, templateIdOf } from '../http/paging.js';
import type { SqlDatabase, SqlQueryable } from '../db/sql.js';
import * as store from '../db/store.js';

/** A JSON response. */
export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  new BytesResponse(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });

/** A 204 response. */
export const noContent = (): Response => new Response(null, { status: 204 });

/** Templates a process keeps in memory for creates. */
const TEMPLATES_HELD = 256;

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

/** What the service's routes share: look-ups that answer 404 problems, checks, the JSON shapes of resources. */
export interface Kit {
  readonly context: ServiceContext;
  readonly db: SqlDatabase;
  readonly builder: PassBuilder;
  /** Rates and the repeat window of the routes anyone may call. */
  readonly guard: PublicGuard;
  /** The seed's two GETs (`createPassHandler` on the SQL store). */
  readonly seed: PassHandler;
  /** Events that record no change (`pass.downloaded`), written in the background, many in one statement. */
  readonly eventBatch: EventBatch;
  /** Runs a transaction that queues events or pushes, then wakes this process's workers. */
  commitEvents(work: (tx: SqlQueryable) => Promise<void>): Promise<void>;
  /** The pass's signed `.pkpass`; 409 without a signer, 422 when it cannot be packed. */
  pack(record: store.PassRecord): Promise<Uint8Array>;
  templateOf(text: string): Promise<store.TemplateRecord>;
  /**
   * The template as this process last read it (creates only: their insert
   * checks the version, so an old copy costs a second try, never a pass
   * rendered from an old template); read when not held.
   */
  cachedTemplateOf(text: string): Promise<store.TemplateRecord>;
  /** The template read now (and the copy in memory replaced, or forgotten when it is gone). */
  freshTemplateOf(text: string): Promise<store.TemplateRecord>;
  /**
   * The template at `version` (the one a pass's row names, read with it): the copy in memory when it is that
   * version, else read through `sql` (and held); `undefined` when it is gone.
   */
  templateAt(sql: SqlQueryable, id: number, version: number | undefined): Promise<store.TemplateRecord | undefined>;
  /** New passes with their `pass.created`, many creates in one statement (group commit). */
  readonly passBatch: PassBatch;
  passOf(passTypeIdentifier: string, serialNumber: string): Promise<store.PassRecord>;
  webhookOf(id: string): Promise<store.WebhookRecord>;
  eventOf(id: string): Promise<store.EventRecord>;
  /** A request body as a template with the given id; 422 with `validateTemplate`'s issues. */
  checkedTemplate(body: unknown, id: number): PassTemplate;
  valuesOf(body: unknown): JsonObject;
  passLinks(request: Request, record: store.PassRecord): Record<string, string>;
  passSummary(request: Request, record: store.PassRecord): unknown;
  passResource(request: Request, record: store.PassRecord): unknown;
  webhookResource(record: store.WebhookRecord): Record<string, unknown>;
  deliveryResource(delivery: store.DeliveryRecord): unknown;
  /** Sends the `webhook.verify` handshake; a verified registration becomes enabled. */
  verify(record: store.WebhookRecord): Promise<Record<string, unknown>>;
}

/** A body nested deeper than anything it may hold: a 422 before it is checked, stored or serialized. */
function tooDeep(code: 'invalid-template' | 'invalid-values'): ServiceProblem {
  const message = `nesting deeper than ${MAX_DEPTH} levels`;
  const issueCode = code === 'invalid-values' ? 'invalid-value' : 'invalid-template';
  return new ServiceProblem(422, code, `The body has ${message}.`, { issues: [{ severity: 'error', code: issueCode, message, path: '' }] });
}

export function createKit(context: ServiceContext): Kit {
  const { db } = context;
  const builder = createPassBuilder(context);
  const pkpasses = createPkpassCache(context.limits.pkpassCacheBytes);
  const guard = createPublicGuard(context.limits);
  const eventBatch = createEventBatch(db, { onWritten: context.notify, onError: context.onError });
  const passBatch = createPassBatch(db, { onWritten: context.notify });
  const templates = new Map<number, store.TemplateRecord>();
  const hold = (record: store.TemplateRecord): store.TemplateRecord => {
    templates.delete(record.template.id);
    if (templates.size >= TEMPLATES_HELD) templates.delete(templates.keys().next().value!);
    templates.set(record.template.id, record);
    return record;
  };

  const commitEvents = async (work: (tx: SqlQueryable) => Promise<void>): Promise<void> => {
    await db.transaction(work);
    context.notify();
  };

  const seed = createPassHandler({
    authenticate: context.authenticate,
    findPass: async (passTypeIdentifier, serialNumber) => (await store.findPass(db, passTypeIdentifier, serialNumber))?.pass,
    findTemplate: async (id) => (id <= 2_147_483_647 ? (await store.findTemplate(db, id))?.template : undefined),
    onError: context.onError,
  });

  const pack = async (record: store.PassRecord): Promise<Uint8Array> => {
    const signer = context.signer;
    if (signer === undefined) {
      throw new ServiceProblem(409, 'signing-not-configured', 'The service has no pass signing certificate (start it with --cert, --key and --wwdr).');
    }
    const readTemplate = async (): Promise<store.TemplateRecord> => {
      const template = await store.findTemplate(db, record.templateId);
      if (template === undefined) throw new ServiceProblem(404, 'template-not-found', 'The pass\'s template is gone.');
      hold(template);
      return template;
    };
    // The pass's row carries its template's version (read with it): a cached package costs no second query.
    const known = record.templateVersion === undefined ? await readTemplate() : undefined;
    // Signed once per pass version, template version (its files) and signer; a pass deleted and made
    // again under its serial starts at version 1 again, so its creation time is part of the version.
    const version = `${record.created.getTime()}.${record.version}:${known?.version ?? record.templateVersion}:${signerId(signer)}`;
    return pkpasses.get(`${record.passTypeIdentifier}\u0000${record.serialNumber}`, version, async () => {
      // Packed from the template at the version the pass's row named: the copy in memory when it is that one.
      const held = templates.get(record.templateId);
      const template = known ?? (held !== undefined && held.version === record.templateVersion ? held : await readTemplate());
      try {
        return await packPass(record.pass, filesFor(record.values, await builder.files(template)), signer, { allowHttp: record.pass.webServiceURL?.startsWith('http:') === true });
      } catch (error) {
        if (error instanceof PackError) throw new ServiceProblem(422, 'cannot-pack', error.message, { issues: error.issues });
        throw error;
      }
    });
  };

  const templateOf = async (text: string): Promise<store.TemplateRecord> => {
    const id = templateIdOf(text);
    const record = id === undefined ? undefined : await store.findTemplate(db, id);
    if (record === undefined) throw new ServiceProblem(404, 'template-not-found', `No template ${JSON.stringify(text)} exists.`);
    return record;
  };

  const freshTemplateOf = async (text: string): Promise<store.TemplateRecord> => {
    const id = templateIdOf(text);
    if (id !== undefined) templates.delete(id);
    return hold(await templateOf(text));
  };

  const templateAt = async (sql: SqlQueryable, id: number, version: number | undefined): Promise<store.TemplateRecord | undefined> => {
    const held = templates.get(id);
    if (held !== undefined && version !== undefined && held.version === version) return held;
    const record = await store.findTemplate(sql, id);
    return record === undefined ? undefined : hold(record);
  };

  const cachedTemplateOf = async (text: string): Promise<store.TemplateRecord> => {
    const id = templateIdOf(text);
    return (id === undefined ? undefined : templates.get(id)) ?? freshTemplateOf(text);
  };

  const passOf = async (passTypeIdentifier: string, serialNumber: string): Promise<store.PassRecord> => {
    const record = await store.findPass(db, passTypeIdentifier, serialNumber);
    if (record === undefined) throw new ServiceProblem(404, 'pass-not-found', `No pass ${JSON.stringify(serialNumber)} of type ${JSON.stringify(passTypeIdentifier)} exists.`);
    return record;
  };

  const webhookOf = async (id: string): Promise<store.WebhookRecord> => {
    const record = isUuid(id) ? await store.findWebhook(db, id) : undefined;
    if (record === undefined) throw new ServiceProblem(404, 'webhook-not-found', `No webhook registration ${JSON.stringify(id)} exists.`);
    return record;
  };

  const eventOf = async (id: string): Promise<store.EventRecord> => {
    const record = isUuid(id) ? await store.findEvent(db, id) : undefined;
    if (record === undefined) throw new ServiceProblem(404, 'event-not-found', `No event ${JSON.stringify(id)} exists.`);
    return record;
  };

  const checkedTemplate = (body: unknown, id: number): PassTemplate => {
    if (!isObject(body)) throw new ServiceProblem(422, 'invalid-template', 'A template is a JSON object.');
    if (nestedDeeperThan(body, MAX_DEPTH)) throw tooDeep('invalid-template');
    const template = { ...body, id };
    const report = validateTemplate(template);
    if (!report.ok) throw new ServiceProblem(422, 'invalid-template', 'The template has errors.', { issues: report.issues });
    // The pass type becomes a key column: PostgreSQL text holds no NUL, and no identifier needs a control character.
    // Nor a lone surrogate, which has no UTF-8: stored, it would become U+FFFD.
    if (/[\u0000-\u001f\u007f]|\p{Cs}/u.test(String(body['passType']))) {
      throw new ServiceProblem(422, 'invalid-template', 'The template has errors.', {
        issues: [{ severity: 'error', code: 'invalid-template', message: '`passType` must not contain control characters or lone surrogates', path: '/passType' }],
      });
    }
    // A longer one would not fit a btree key beside its serial (every pass made from it a 500), nor Wallet's path limit.
    if (String(body['passType']).length > MAX_IDENTIFIER_LENGTH) {
      throw new ServiceProblem(422, 'invalid-template', 'The template has errors.', {
        issues: [{ severity: 'error', code: 'invalid-template', message: `\`passType\` must be at most ${MAX_IDENTIFIER_LENGTH} characters`, path: '/passType' }],
      });
    }
    return template as unknown as PassTemplate;
  };

  const valuesOf = (body: unknown): JsonObject => {
    if (!isObject(body)) throw new ServiceProblem(422, 'invalid-values', 'Values are a JSON object: placeholder name → value.');
    // A value may nest MAX_DEPTH levels (the renderer's limit); the object holding the values is one more.
    if (nestedDeeperThan(body, MAX_DEPTH)) throw tooDeep('invalid-values');
    return body as JsonObject;
  };

  const passLinks = (request: Request, record: store.PassRecord): Record<string, string> => {
    const base = `${baseUrl(context, request)}/v1/passes/${encodeURIComponent(record.passTypeIdentifier)}/${encodeURIComponent(record.serialNumber)}`;
    const token = record.pass.authenticationToken;
    return {
      self: base,
      passjson: `${base}/passjson`,
      // A link a phone can open: the pass's own token stands in for the API key.
      pkpass: `${base}/pkpass${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`,
      // With Google Wallet: the same for the "Add to Google Wallet" link (a redirect to it).
      ...(context.google === undefined ? {} : { google: `${base}/google${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}` }),
    };
  };

  const passSummary = (request: Request, record: store.PassRecord) => ({
    passTypeIdentifier: record.passTypeIdentifier,
    serialNumber: record.serialNumber,
    templateId: record.templateId,
    version: record.version,
    created: iso(record.created),
    updated: iso(record.updated),
    links: passLinks(request, record),
  });

  const passResource = (request: Request, record: store.PassRecord) => ({ ...passSummary(request, record), values: record.values });

  const webhookResource = (record: store.WebhookRecord) => ({
    id: record.id,
    url: record.url,
    state: record.state,
    stateReason: record.stateReason,
    created: iso(record.created),
    updated: iso(record.updated),
  });

  const deliveryResource = (delivery: store.DeliveryRecord) => ({
    id: String(delivery.id),
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    webhookId: delivery.webhookId,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: iso(delivery.nextAttemptAt),
    lastStatus: delivery.lastStatus,
    lastError: delivery.lastError,
    deliveredAt: iso(delivery.deliveredAt),
    history: delivery.history.map((attempt) => ({ ...attempt, at: iso(attempt.at) })),
  });

  const verify = async (record: store.WebhookRecord) => {
    const check = await verifyEndpoint(record.url, record.secret, {
      allowPrivateNetworks: context.webhooks.allowPrivateNetworks,
      ...(context.webhooks.timeoutMs === undefined ? {} : { timeoutMs: context.webhooks.timeoutMs }),
      ...(context.webhooks.fetch === undefined ? {} : { fetch: context.webhooks.fetch }),
    });
    const updated = check.verified ? await store.setWebhookState(db, record.id, 'enabled', null) : record;
    return {
      ...webhookResource(updated ?? record),
      verification: check.verified
        ? { verified: true, status: check.status }
        : { verified: false, reason: check.reason, ...(check.status === undefined ? {} : { status: check.status }), error: check.error },
    };
  };

  return {
    context,
    db,
    builder,
    guard,
    seed,
    eventBatch,
    commitEvents,
    pack,
    templateOf,
    cachedTemplateOf,
    freshTemplateOf,
    templateAt,
    passBatch,
    passOf,
    webhookOf,
    eventOf,
    checkedTemplate,
    valuesOf,
    passLinks,
    passSummary,
    passResource,
    webhookResource,
    deliveryResource,
    verify,
  };
}
