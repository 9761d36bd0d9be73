// The JSON Schemas (2020-12, as ajv compiles them) of the service's bodies:
// the components of the OpenAPI document, which the routes' declarations
// name with `ref`, and the small builders they are written with.

import type { KnownEventType } from '../../webhooks/event-types.js';

/** A JSON Schema, or any other part of the OpenAPI document. */
export type Json = Record<string, unknown>;

// Every event type the service sends (a type added to KnownEventType must be listed: this does not compile until it is).
const EVENT_TYPES: { readonly [T in KnownEventType | 'job.completed']: true } = {
  'webhook.verify': true,
  'pass.created': true,
  'pass.updated': true,
  'pass.downloaded': true,
  'pass.personalized': true,
  'registration.created': true,
  'registration.deleted': true,
  'job.completed': true,
  'pass.voided': true,
  'pass.expired': true,
  'pass.reactivated': true,
  'certificate.expiring': true,
};

/** The event types a webhook registration may ask for (`events`). */
export const WEBHOOK_EVENT_TYPES: readonly string[] = Object.keys(EVENT_TYPES);

/**
 * A reference to one of the component schemas.
 *
 * @example
 * ```ts
 * ref('Pass'); // ref('Pass')
 * ```
 */
export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/**
 * A value of `type` or `null`.
 *
 * @example
 * ```ts
 * nullable('string', { format: 'date-time' });
 * ```
 */
export const nullable = (type: string, extra: Json = {}): Json => ({ type: [type, 'null'], ...extra });

/**
 * An object with these properties, all required unless `required` names fewer.
 *
 * @example
 * ```ts
 * object({ path: string(), size: { type: 'integer' } });
 * ```
 */
export const object = (properties: Record<string, Json>, required: readonly string[] = Object.keys(properties), extra: Json = {}): Json => ({
  type: 'object',
  properties,
  required: [...required],
  ...extra,
});

/**
 * A string, described.
 *
 * @example
 * ```ts
 * string('A stable code.');
 * ```
 */
export const string = (description?: string, extra: Json = {}): Json => ({ type: 'string', ...(description === undefined ? {} : { description }), ...extra });

const dateTime: Json = { type: 'string', format: 'date-time' };

/**
 * A page of a list: its items and the cursor of the next page.
 *
 * @example
 * ```ts
 * page('Template');
 * ```
 */
export const page = (item: string): Json =>
  object({
    items: { type: 'array', items: ref(item) },
    next: nullable('string', { description: 'The cursor of the next page (`after` or `before`), `null` on the last.' }),
  });

/** The component schemas of the OpenAPI document, by name. */
export const SCHEMAS: Readonly<Record<string, Json>> = {
  Issue: object(
    {
      severity: { enum: ['error', 'warning', 'info'] },
      code: string('A stable code.'),
      message: string(),
      path: string('A JSON Pointer into the input (`""` for the whole).'),
    },
    ['severity', 'code', 'message', 'path'],
  ),
  Problem: object(
    {
      type: string('`https://passmint.dev/problems/<code>`: an identifier, not a page.'),
      title: string(),
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: string(),
      code: string('A stable code, the same as the end of `type`.'),
      issues: { type: 'array', items: ref('Issue'), maxItems: 100 },
    },
    ['type', 'title', 'status', 'code'],
    { description: 'RFC 9457 (`application/problem+json`).' },
  ),
  TemplateInput: {
    type: 'object',
    description: 'A template: `name`, `formatVersion`, `passType`, a style under `description`, the placeholders it uses (see the template documentation).',
    required: ['name', 'formatVersion', 'passType'],
    properties: { name: string(), formatVersion: { type: 'integer' }, passType: string(), placeholder: { type: 'array', items: string() } },
  },
  Template: { allOf: [ref('TemplateInput'), object({ id: { type: 'integer', minimum: 1 } })] },
  TemplateAnswer: {
    allOf: [
      ref('Template'),
      object(
        {
          warnings: {
            type: 'array',
            description:
              'Present when something will not work though the template is stored: `no-signing-identity` (its pass type has no signing certificate here). Never stored.',
            items: object({ severity: { const: 'warning' }, code: string(), message: string(), path: string() }),
          },
        },
        [],
      ),
    ],
  },
  FileInfo: object({ path: string(), size: { type: 'integer', minimum: 0 } }),
  Values: { type: 'object', description: 'Placeholder name → value (any JSON).' },
  NewPass: object({ serialNumber: string('Default: a new UUID.', { minLength: 1, maxLength: 256 }), values: ref('Values') }, []),
  PassLinks: object(
    {
      self: string(),
      passjson: string(),
      pkpass: string('The download link; with `?token=` it opens without an API key.'),
      google: string('With Google Wallet: the holder\'s "Add to Google Wallet" link (a redirect to the save link).'),
      share: string('The public page for the holder (`/p/{shareId}`): the pass drawn, with the wallet buttons in the order of their device.'),
    },
    ['self', 'passjson', 'pkpass', 'share'],
  ),
  PassSummary: object({
    passTypeIdentifier: string(),
    serialNumber: string(),
    templateId: { type: 'integer' },
    version: { type: 'integer', minimum: 1 },
    created: dateTime,
    updated: dateTime,
    state: {
      enum: ['active', 'voided', 'expired'],
      description: '`voided`: final, its values cannot change; `expired`: its `expirationDate` has been set to when it was expired.',
    },
    templateVersion: nullable('integer', { description: 'The template version the pass was last rendered from (`null`: made before versions were recorded).' }),
    links: ref('PassLinks'),
  }),
  Pass: { allOf: [ref('PassSummary'), object({ values: ref('Values') })] },
  PassJson: { type: 'object', description: 'pass.json as Apple defines it.', required: ['formatVersion', 'passTypeIdentifier', 'serialNumber'] },
  NewWebhook: object(
    {
      url: string('http(s), at most 2048 characters.'),
      secret: string('Optional: 16 to 256 visible ASCII characters; default, one is made.'),
      events: ref('WebhookEvents'),
    },
    ['url'],
  ),
  WebhookEvents: {
    type: ['array', 'null'],
    items: ref('EventType'),
    minItems: 1,
    uniqueItems: true,
    description: 'The event types the registration receives; left out or `null`: every type. `webhook.verify` is always sent.',
  },
  EventType: { enum: [...WEBHOOK_EVENT_TYPES] },
  Webhook: object(
    {
      id: string(undefined, { format: 'uuid' }),
      url: string(),
      state: { enum: ['pending', 'enabled', 'disabled'] },
      stateReason: nullable('string'),
      events: ref('WebhookEvents'),
      secret: string('Only in the answers to creation and rotation.'),
      created: dateTime,
      updated: dateTime,
    },
    ['id', 'url', 'state', 'stateReason', 'created', 'updated'],
  ),
  WebhookVerification: {
    allOf: [
      ref('Webhook'),
      object({
        verification: object({ verified: { type: 'boolean' }, status: { type: 'integer' }, reason: string(), error: nullable('string') }, ['verified']),
      }),
    ],
  },
  Attempt: {
    type: 'object',
    required: ['at', 'outcome'],
    properties: { at: dateTime, outcome: string(), status: nullable('integer'), error: nullable('string'), durationMs: { type: 'integer' } },
  },
  Delivery: object({
    id: string(),
    eventId: string(),
    eventType: string(),
    webhookId: string(),
    status: { enum: ['pending', 'delivered', 'failed', 'cancelled'] },
    attempts: { type: 'integer', minimum: 0 },
    nextAttemptAt: nullable('string', { format: 'date-time' }),
    lastStatus: nullable('integer'),
    lastError: nullable('string'),
    deliveredAt: nullable('string', { format: 'date-time' }),
    history: { type: 'array', items: ref('Attempt') },
  }),
  Event: object({ id: string(), type: string('`pass.created`, `pass.updated`, `registration.created` …'), created: string(), data: { type: 'object' } }, [
    'id',
    'type',
    'data',
  ]),
  ApiKeyScope: { enum: ['read', 'passes', 'admin'] },
  ApiKeyRequest: object({ name: string(undefined, { minLength: 1, maxLength: 100 }), scopes: { type: 'array', items: ref('ApiKeyScope'), minItems: 1 } }),
  ApiKey: object({
    id: string(undefined, { format: 'uuid' }),
    name: string(),
    scopes: { type: 'array', items: ref('ApiKeyScope') },
    prefix: nullable('string', { description: "The key's first characters (`pm_` and 8), to recognise it by." }),
    created: dateTime,
    lastUsed: nullable('string', { format: 'date-time', description: 'To within a minute.' }),
  }),
  NewApiKey: { allOf: [ref('ApiKey'), object({ key: string('The key: shown this once, only its SHA-256 is stored.') })] },
  Job: object(
    {
      id: string(undefined, { format: 'uuid' }),
      kind: string('`import`; more kinds to come.'),
      state: { enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] },
      templateId: nullable('integer'),
      mode: { enum: ['create', 'upsert'], description: "An import's mode." },
      rows: { type: 'integer', minimum: 0, description: 'Records in the input.' },
      created: { type: 'integer', minimum: 0, description: 'Records that made a new pass.' },
      updated: { type: 'integer', minimum: 0, description: 'Records that made a new version of a pass.' },
      unchanged: { type: 'integer', minimum: 0, description: 'Records whose pass was already so.' },
      failed: { type: 'integer', minimum: 0, description: 'Records refused, each with its problem in the results.' },
      changed: { type: 'integer', minimum: 0, description: 'A publish or a bulk void: passes that got a new version (the same number as `updated`).' },
      error: nullable('string', { description: "Why a failed job stopped (not a record's problem)." }),
      queuedAt: dateTime,
      startedAt: nullable('string', { format: 'date-time' }),
      finishedAt: nullable('string', { format: 'date-time' }),
    },
    ['id', 'kind', 'state', 'templateId', 'rows', 'created', 'updated', 'unchanged', 'failed', 'error', 'queuedAt', 'startedAt', 'finishedAt'],
  ),
  JobResult: object(
    {
      row: { type: 'integer', minimum: 1, description: "The record's number in the file, from 1 (a CSV header is not one)." },
      status: { enum: ['created', 'updated', 'changed', 'voided', 'unchanged', 'failed'] },
      serialNumber: nullable('string'),
      problem: ref('Problem'),
    },
    ['row', 'status', 'serialNumber'],
  ),
  MessageRequest: object(
    {
      header: string("The title (Google shows it; on Apple it goes into the message field's label when that label is a placeholder).", {
        minLength: 1,
        maxLength: 200,
      }),
      body: string("The text: the message field's new value, shown on the lock screen through its changeMessage.", { minLength: 1, maxLength: 1000 }),
      filter: {
        type: 'object',
        description: 'Which passes of the template: the search filters of `GET /v1/passes` (`values.NAME`, `serialNumber`, `updatedSince`); none: every pass.',
        additionalProperties: { type: 'string' },
      },
    },
    ['header', 'body'],
  ),
  Message: object(
    {
      id: string(undefined, { format: 'uuid' }),
      templateId: { type: 'integer' },
      header: string(),
      body: string(),
      filter: { type: 'object', additionalProperties: { type: 'string' } },
      field: string('The key of the field the text went into.'),
      passes: { type: 'integer', minimum: 0, description: 'Passes it reaches (those matching when it was sent).' },
      google: nullable('object', {
        description:
          "With Google Wallet: how many passes get it as a notification (`notify`, TEXT_AND_NOTIFY) and how many only on the pass (`text`: Google's three a day were used).",
        properties: { notify: { type: 'integer' }, text: { type: 'integer' } },
      }),
      job: nullable('object', { description: 'Its job (`GET /v1/jobs/{id}`): state and counts; `null` once retention removed it.' }),
      created: dateTime,
    },
    ['id', 'templateId', 'header', 'body', 'filter', 'field', 'passes', 'google', 'job', 'created'],
  ),
  BundleRequest: object({
    passes: {
      type: 'array',
      minItems: 1,
      maxItems: 10,
      items: object({ passTypeIdentifier: string(), serialNumber: string() }),
    },
  }),
  Bundle: object({
    id: string('The share id of the bundle.'),
    passes: { type: 'array', items: object({ passTypeIdentifier: string(), serialNumber: string() }) },
    links: object(
      {
        share: string('The public page of every pass of the bundle.'),
        pkpasses: string('Every pass in one `.pkpasses` file (`application/vnd.apple.pkpasses`).'),
        google: string('With Google Wallet: one "Add to Google Wallet" link with every pass (a redirect to the save link).'),
      },
      ['share', 'pkpasses'],
    ),
    created: dateTime,
  }),
  GoogleSaveLink: object({ url: string(), type: string(), classId: string(), objectId: string(), losses: { type: 'array', items: { type: 'object' } } }),
};
