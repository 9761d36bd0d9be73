// The OpenAPI 3.1 document of the service, served at GET /v1/openapi.json.
// test/server/openapi.test.ts checks it against the router (every route
// documented, every documented route served) and validates real answers
// against its schemas. Each operation's `security` comes from requiredScope,
// the function the router enforces, so the two cannot disagree.
import { requiredScope } from './scopes.js';

type Json = Record<string, unknown>;

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const nullable = (type: string, extra: Json = {}): Json => ({ type: [type, 'null'], ...extra });
const object = (properties: Record<string, Json>, required: readonly string[] = Object.keys(properties), extra: Json = {}): Json => ({
  type: 'object',
  properties,
  required: [...required],
  ...extra,
});
const string = (description?: string, extra: Json = {}): Json => ({ type: 'string', ...(description === undefined ? {} : { description }), ...extra });
const dateTime: Json = { type: 'string', format: 'date-time' };
const page = (item: string): Json =>
  object({ items: { type: 'array', items: ref(item) }, next: nullable('string', { description: 'The cursor of the next page (`after` or `before`), `null` on the last.' }) });

const json = (schema: Json, description: string, headers?: Json): Json => ({
  description,
  content: { 'application/json': { schema } },
  ...(headers === undefined ? {} : { headers }),
});
const problem = (description: string): Json => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });
const empty = (description: string): Json => ({ description });
// Every route anyone may call (Apple's web service, links opened with a pass's token) counts requests per address and per token.
const rateLimited = problem('Too many requests from this address or for this pass (`rate-limited`); `Retry-After` says when to try again.');
const location: Json = { location: { description: 'The new resource', schema: { type: 'string' } } };
const body = (schema: Json, required = true): Json => ({ required, content: { 'application/json': { schema } } });

const parameter = (name: string, description: string, where: 'path' | 'query' = 'path', schema: Json = { type: 'string' }): Json => ({
  name,
  in: where,
  required: where === 'path',
  description,
  schema,
});
const PARAMETERS: Record<string, Json> = {
  id: parameter('id', 'The resource\'s id.'),
  type: parameter('type', 'The pass type identifier (`pass.com.example.member`).'),
  serial: parameter('serial', 'The serial number, percent-encoded.'),
  path: parameter('path', 'A file path inside the bundle (`logo.png`, `en.lproj/pass.strings`); its segments separated by `/`.'),
  template: parameter('template', 'The template id.'),
  hash: parameter('hash', 'The SHA-256 of the image, hex.'),
  deviceLibraryIdentifier: parameter('deviceLibraryIdentifier', 'The device\'s library identifier (Wallet\'s).'),
  passTypeIdentifier: parameter('passTypeIdentifier', 'The pass type identifier.'),
  serialNumber: parameter('serialNumber', 'The serial number.'),
};
const limit = parameter('limit', 'Items per page, 1 to 100 (default 50).', 'query', { type: 'integer', minimum: 1, maximum: 100 });
const after = parameter('after', 'The items after this cursor, oldest first: `0` for the oldest, or the `next` of a page read with `after`.', 'query');
const before = parameter('before', 'The items before this cursor, newest first: `999999999999999` for the newest, or the `next` of a page read with `before`.', 'query');
// Every list pages both ways; a cursor no page gave is refused the same way on each.
const paging: readonly Json[] = [limit, after, before];
const badPage = problem('A cursor that is not one a page gave, `after` and `before` together, or a `limit` outside 1–100 (`invalid-query`).');
const passToken = parameter('token', 'The pass\'s authentication token (the link in `links.pkpass`), instead of an API key.', 'query');

/** How an operation is opened: an API key with a scope (from the router's table), or something else. */
type Access = 'key' | 'public' | 'key-or-pass-token' | 'key-or-metrics-token' | 'apple-pass';

interface Operation {
  readonly summary: string;
  readonly description?: string;
  readonly access?: Access;
  readonly query?: readonly Json[];
  readonly requestBody?: Json;
  readonly responses: Record<string, Json>;
}

const TAGS: readonly [string, string][] = [
  ['/v1/templates', 'Templates'],
  ['/v1/passes', 'Passes'],
  ['/v1/webhooks', 'Webhooks'],
  ['/v1/events', 'Events'],
  ['/v1/keys', 'API keys'],
  ['/wallet/', 'Apple Wallet web service'],
  ['/google/', 'Google Wallet'],
];

function tagOf(path: string, summary: string): string {
  if (path.endsWith('/google')) return 'Google Wallet';
  if (summary.startsWith('Operations:') || ['/healthz', '/readyz', '/metrics', '/v1/openapi.json'].includes(path)) return 'Operations';
  return TAGS.find(([prefix]) => path.startsWith(prefix))?.[1] ?? 'Operations';
}

/** One operation in OpenAPI form: its parameters from the path, its security from the scope table, the problems every call may answer. */
function operation(method: string, path: string, spec: Operation): Json {
  const access = spec.access ?? 'key';
  const pattern = path.replace(/\{([^}]+)\}/g, (_, name: string) => (name === 'path' ? '*' : `:${name}`));
  const scope = requiredScope(method.toUpperCase(), pattern);
  const security =
    access === 'key'
      ? [{ apiKey: [scope] }]
      : access === 'key-or-pass-token'
        ? [{ apiKey: [scope] }, { passToken: [] }]
        : access === 'key-or-metrics-token'
          ? [{ apiKey: [scope] }, { metricsToken: [] }]
          : access === 'apple-pass'
            ? [{ applePass: [] }]
            : [];
  const responses: Record<string, Json> = { ...spec.responses };
  if (access !== 'public') responses['401'] ??= problem('No credentials, or wrong ones (`missing-credentials`, `invalid-credentials`).');
  if (access === 'key') responses['403'] ??= problem(`The API key lacks the \`${scope}\` scope (\`insufficient-scope\`).`);
  if (path.startsWith('/v1/')) {
    responses['503'] ??= problem('The database is unavailable (`database-unavailable`); `Retry-After` says when to try again.');
  }
  responses['default'] = problem('Any other refusal or failure: an RFC 9457 problem with a stable `code`.');
  const parameters = [...[...path.matchAll(/\{([^}]+)\}/g)].map((match) => PARAMETERS[match[1]!]!), ...(spec.query ?? [])];
  return {
    summary: spec.summary,
    ...(spec.description === undefined ? {} : { description: spec.description }),
    operationId: `${method}${path.replace(/\{([^}]+)\}/g, 'By-$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase())}`,
    tags: [tagOf(path, spec.summary)],
    ...(access === 'key' ? { 'x-scope': scope } : {}),
    security,
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(spec.requestBody === undefined ? {} : { requestBody: spec.requestBody }),
    responses,
  };
}

const PATHS: Record<string, Record<string, Operation>> = {
  '/v1/templates': {
    get: { summary: 'List templates', query: paging, responses: { 200: json(page('Template'), 'A page of templates, oldest first unless read `before` a cursor.'), 400: badPage } },
    post: {
      summary: 'Create a template',
      requestBody: body(ref('TemplateInput')),
      responses: { 201: json(ref('Template'), 'The template, with its new id.', location), 422: problem('The template has errors (`invalid-template`, with `issues`).') },
    },
  },
  '/v1/templates/{id}': {
    get: { summary: 'Read a template', responses: { 200: json(ref('Template'), 'The template.'), 404: problem('No such template.') } },
    put: {
      summary: 'Replace a template',
      requestBody: body(ref('TemplateInput')),
      responses: { 200: json(ref('Template'), 'The template as stored.'), 404: problem('No such template.'), 422: problem('The template has errors.') },
    },
    delete: { summary: 'Delete a template', responses: { 204: empty('Deleted.'), 404: problem('No such template.'), 409: problem('Passes were made from it (`template-in-use`).') } },
  },
  '/v1/templates/{id}/files': {
    get: { summary: 'List a template\'s files', responses: { 200: json(object({ items: { type: 'array', items: ref('FileInfo') } }), 'Each file\'s path and size.'), 404: problem('No such template.') } },
  },
  '/v1/templates/{id}/files/{path}': {
    put: {
      summary: 'Add or replace a template file',
      description: 'The body is the file\'s bytes (an image, a `.strings` file). Nested paths keep their `/`.',
      requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } },
      responses: { 201: json(ref('FileInfo'), 'Stored.'), 404: problem('No such template.'), 413: problem('The file is larger than the limit.'), 422: problem('Not a file a pass may hold (`invalid-file`).') },
    },
    delete: { summary: 'Delete a template file', responses: { 204: empty('Deleted.'), 404: problem('No such template or file.') } },
  },
  '/v1/templates/{id}/passes': {
    post: {
      summary: 'Create a pass from a template',
      requestBody: body(ref('NewPass')),
      responses: {
        201: json(ref('Pass'), 'The pass, with its links.', location),
        404: problem('No such template.'),
        409: problem('A pass with this serial number exists (`pass-exists`).'),
        422: problem('The values do not fit the template (`invalid-values`, `invalid-pass`, with `issues`).'),
      },
    },
  },
  '/v1/passes': {
    get: {
      summary: 'List passes',
      query: [...paging, parameter('templateId', 'Only passes made from this template.', 'query')],
      responses: { 200: json(page('PassSummary'), 'A page of passes, oldest first unless read `before` a cursor.'), 400: problem('A bad cursor or `limit` (as on every list), or a `templateId` that is no template id (`invalid-query`).') },
    },
  },
  '/v1/passes/{type}/{serial}': {
    get: { summary: 'Read a pass', responses: { 200: json(ref('Pass'), 'The pass with its values.'), 404: problem('No such pass.') } },
    delete: { summary: 'Delete a pass', responses: { 204: empty('Deleted.'), 404: problem('No such pass.') } },
  },
  '/v1/passes/{type}/{serial}/values': {
    get: { summary: 'Read a pass\'s values', responses: { 200: json(ref('Values'), 'Placeholder name → value.'), 404: problem('No such pass.') } },
    put: {
      summary: 'Change a pass\'s values',
      description: 'Renders the pass again; Wallet devices are told (APNs) and webhooks receive `pass.updated`.',
      requestBody: body(ref('Values')),
      responses: { 200: json(ref('Pass'), 'The changed pass.'), 404: problem('No such pass.'), 422: problem('The values do not fit the template.') },
    },
  },
  '/v1/passes/{type}/{serial}/passjson': {
    get: {
      summary: 'The pass\'s pass.json',
      description: 'Unsigned, as rendered; with an API key.',
      responses: { 200: json(ref('PassJson'), 'pass.json.'), 404: problem('No such pass.') },
    },
  },
  '/v1/passes/{type}/{serial}/pkpass': {
    get: {
      summary: 'Download the signed .pkpass',
      description: 'With an API key, or with `?token=` (the pass\'s own token: the link a phone opens). Rate limited per token and per address when opened by token.',
      access: 'key-or-pass-token',
      query: [passToken],
      responses: {
        200: { description: 'The signed pass.', content: { 'application/vnd.apple.pkpass': { schema: { type: 'string', contentMediaType: 'application/vnd.apple.pkpass' } } } },
        404: problem('No such pass.'),
        409: problem('The service has no signing certificate (`signing-not-configured`).'),
        429: problem('Too many downloads; `Retry-After` says when to try again.'),
      },
    },
  },
  '/v1/passes/{type}/{serial}/google': {
    get: {
      summary: 'The pass\'s Google Wallet save link',
      description: 'With an API key: the link as JSON. With `?token=`: a 303 redirect to it (a link for the holder).',
      access: 'key-or-pass-token',
      query: [passToken],
      responses: {
        200: json(ref('GoogleSaveLink'), 'The save link, and what Google Wallet cannot show of the pass.'),
        303: empty('Redirect to the save link (opened with `?token=`).'),
        401: problem('Neither an API key nor the pass\'s own token (`missing-credentials`, `invalid-credentials`).'),
        404: problem('No such pass.'),
        409: problem('Google Wallet is not configured (`google-not-configured`).'),
        429: problem('Opened with `?token=`: too many requests from this address or for this pass (`rate-limited`); `Retry-After` says when to try again.'),
        503: problem('The pass is too large for a link that carries it and is not at Google yet (`google-not-ready`); `Retry-After` says when to ask again.'),
      },
    },
  },
  '/v1/webhooks': {
    get: { summary: 'List webhook registrations', query: paging, responses: { 200: json(page('Webhook'), 'A page of registrations, oldest first unless read `before` a cursor (secrets are shown at creation and rotation only).'), 400: badPage } },
    post: {
      summary: 'Register a webhook',
      description: 'Sends the `webhook.verify` handshake; a receiver that answers it is enabled.',
      requestBody: body(ref('NewWebhook')),
      responses: { 201: json(ref('WebhookVerification'), 'The registration, its secret (shown this once), and how the handshake went.', location), 422: problem('Not a URL the service delivers to.') },
    },
  },
  '/v1/webhooks/{id}': {
    get: { summary: 'Read a webhook registration', responses: { 200: json(ref('Webhook'), 'The registration.'), 404: problem('No such registration.') } },
  },
  '/v1/webhooks/{id}/verify': {
    post: { summary: 'Send the handshake again', responses: { 200: json(ref('WebhookVerification'), 'How the handshake went.'), 404: problem('No such registration.') } },
  },
  '/v1/webhooks/{id}/disable': {
    post: { summary: 'Disable a webhook registration', responses: { 200: json(ref('Webhook'), 'The registration, disabled.'), 404: problem('No such registration.') } },
  },
  '/v1/webhooks/{id}/secret': {
    post: {
      summary: 'Rotate the signing secret',
      description: 'Without a body the service makes the new secret; send `{"secret": …}` to choose it (configure the receiver with it first). The old secret signs nothing from now on.',
      requestBody: body(object({ secret: string('16 to 256 visible ASCII characters without spaces.') }, []), false),
      responses: {
        200: json(ref('Webhook'), 'The registration with its new secret (shown this once).'),
        404: problem('No such registration.'),
        422: problem('A chosen secret that is not 16 to 256 visible ASCII characters, or a body that is not an object (`invalid-body`).'),
      },
    },
  },
  '/v1/webhooks/{id}/deliveries': {
    get: { summary: 'A registration\'s deliveries', query: paging, responses: { 200: json(page('Delivery'), 'Newest first unless read `after` a cursor, each with its attempts.'), 400: badPage, 404: problem('No such registration.') } },
  },
  '/v1/events': {
    get: { summary: 'List events', query: paging, responses: { 200: json(page('Event'), 'Newest first unless read `after` a cursor.'), 400: badPage } },
  },
  '/v1/events/{id}': {
    get: {
      summary: 'Read an event and its deliveries',
      query: paging,
      responses: { 200: json(object({ event: ref('Event'), deliveries: { type: 'array', items: ref('Delivery') }, next: nullable('string') }), 'The event, a page of its deliveries (oldest first unless read `before` a cursor).'), 400: badPage, 404: problem('No such event.') },
    },
  },
  '/v1/events/{id}/replay': {
    post: {
      summary: 'Deliver an event again',
      requestBody: body(object({ webhookId: string('Only to this registration.') }, []), false),
      responses: { 202: json(object({ queued: { type: 'integer', minimum: 0 } }), 'How many deliveries were queued.'), 404: problem('No such event or registration.'), 409: problem('The registration is not enabled.') },
    },
  },
  '/v1/keys': {
    get: { summary: 'List API keys', description: 'Never the keys themselves: their id, name, scopes and first characters.', responses: { 200: json(object({ items: { type: 'array', items: ref('ApiKey') } }), 'The active keys, oldest first.') } },
    post: {
      summary: 'Create an API key',
      requestBody: body(ref('ApiKeyRequest')),
      responses: { 201: json(ref('NewApiKey'), 'The key (shown this once) and its record.', location), 422: problem('A bad name or scope (`invalid-body`, with `issues`).') },
    },
  },
  '/v1/keys/{id}': {
    get: { summary: 'Read an API key\'s record', responses: { 200: json(ref('ApiKey'), 'The record.'), 404: problem('No such active key (`key-not-found`).') } },
    delete: { summary: 'Revoke an API key', description: 'Every process refuses it within a second.', responses: { 204: empty('Revoked.'), 404: problem('No such active key.') } },
  },
  '/v1/openapi.json': {
    get: { summary: 'Operations: this document', access: 'public', responses: { 200: json({ type: 'object' }, 'OpenAPI 3.1.') } },
  },
  '/healthz': {
    get: { summary: 'Operations: the process answers', access: 'public', responses: { 200: json(object({ status: { const: 'ok' } }), 'Up.') } },
  },
  '/readyz': {
    get: {
      summary: 'Operations: ready to serve',
      description: 'The database answers and its schema is this version\'s.',
      access: 'public',
      responses: {
        200: json(object({ status: { const: 'ready' }, schemaVersion: { type: 'integer' } }), 'Ready.'),
        503: problem('Not ready (`not-ready`): the database does not answer, or its schema is behind.'),
      },
    },
  },
  '/metrics': {
    get: {
      summary: 'Operations: Prometheus metrics',
      description: 'Text format 0.0.4. An API key (any scope) or the metrics token (`--metrics-token`).',
      access: 'key-or-metrics-token',
      responses: { 200: { description: 'The metrics.', content: { 'text/plain': { schema: { type: 'string' } } } } },
    },
  },
  '/google/callback': {
    post: {
      summary: 'Google Wallet\'s save and delete callbacks',
      description: 'Signed by Google (ECv2SigningOnly); checked, then reported as `registration.created` / `registration.deleted` events.',
      access: 'public',
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
      responses: { 200: empty('Accepted (a repeat is accepted and dropped).'), 400: problem('Not a callback (`invalid-callback`).'), 401: problem('Not signed by Google for this issuer, or expired (`invalid-callback`; the detail names the reason).'), 404: problem('Google Wallet is not configured.'), 413: problem('Over 64 KiB.'), 503: problem('Google\'s keys could not be fetched (`google-keys-unavailable`).') },
    },
  },
  '/google/images/{template}/{hash}/{path}': {
    get: {
      summary: 'A template image, for Google Wallet to fetch',
      access: 'public',
      responses: { 200: { description: 'The image; its address names its content.', content: { 'image/png': { schema: { type: 'string' } } } }, 404: problem('No such image.') },
    },
  },
  '/wallet/v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}/{serialNumber}': {
    post: {
      summary: 'Apple: register a device for a pass\'s updates',
      access: 'apple-pass',
      requestBody: body(object({ pushToken: string() })),
      responses: {
        200: empty('Already registered; or the pass or the device is at its registration cap (`maxRegistrationsPerPass`, `maxRegistrationsPerDevice`): nothing stored, no event.'),
        201: empty('Registered.'),
        400: problem('A bad body.'),
        429: rateLimited,
      },
    },
    delete: { summary: 'Apple: unregister a device', access: 'apple-pass', responses: { 200: empty('Unregistered.'), 429: rateLimited } },
  },
  '/wallet/v1/devices/{deviceLibraryIdentifier}/registrations/{passTypeIdentifier}': {
    get: {
      summary: 'Apple: the serial numbers changed since a tag',
      access: 'public',
      query: [parameter('passesUpdatedSince', 'The `lastUpdated` tag of the previous answer.', 'query')],
      responses: { 200: json(object({ lastUpdated: string(), serialNumbers: { type: 'array', items: string() } }), 'The serial numbers and the new tag.'), 204: empty('Nothing changed.'), 429: rateLimited },
    },
  },
  '/wallet/v1/passes/{passTypeIdentifier}/{serialNumber}': {
    get: {
      summary: 'Apple: the latest version of a pass',
      access: 'apple-pass',
      responses: {
        200: { description: 'The signed pass.', content: { 'application/vnd.apple.pkpass': { schema: { type: 'string' } } } },
        304: empty('Not modified since `If-Modified-Since`.'),
        429: rateLimited,
      },
    },
  },
  '/wallet/v1/passes/{passTypeIdentifier}/{serialNumber}/personalize': {
    post: {
      summary: 'Apple: personalize a rewards-enrollment pass',
      access: 'apple-pass',
      requestBody: body(object({ personalizationToken: string(), requiredPersonalizationInfo: { type: 'object' } })),
      responses: { 200: { description: 'The signed personalization token.', content: { 'application/octet-stream': { schema: { type: 'string' } } } }, 400: problem('A bad body.'), 429: rateLimited },
    },
  },
  '/wallet/v1/log': {
    post: {
      summary: 'Apple: log messages from devices',
      access: 'public',
      requestBody: body(object({ logs: { type: 'array', items: string() } })),
      responses: { 200: empty('Received.'), 400: problem('Not `{"logs": [...]}`.'), 429: rateLimited },
    },
  },
};

const SCHEMAS: Record<string, Json> = {
  Issue: object(
    { severity: { enum: ['error', 'warning', 'info'] }, code: string('A stable code.'), message: string(), path: string('A JSON Pointer into the input (`""` for the whole).') },
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
  FileInfo: object({ path: string(), size: { type: 'integer', minimum: 0 } }),
  Values: { type: 'object', description: 'Placeholder name → value (any JSON).' },
  NewPass: object({ serialNumber: string('Default: a new UUID.', { minLength: 1, maxLength: 256 }), values: ref('Values') }, []),
  PassLinks: object(
    {
      self: string(),
      passjson: string(),
      pkpass: string('The download link; with `?token=` it opens without an API key.'),
      google: string('With Google Wallet: the holder\'s "Add to Google Wallet" link (a redirect to the save link).'),
    },
    ['self', 'passjson', 'pkpass'],
  ),
  PassSummary: object({
    passTypeIdentifier: string(),
    serialNumber: string(),
    templateId: { type: 'integer' },
    version: { type: 'integer', minimum: 1 },
    created: dateTime,
    updated: dateTime,
    links: ref('PassLinks'),
  }),
  Pass: { allOf: [ref('PassSummary'), object({ values: ref('Values') })] },
  PassJson: { type: 'object', description: 'pass.json as Apple defines it.', required: ['formatVersion', 'passTypeIdentifier', 'serialNumber'] },
  NewWebhook: object({ url: string('http(s), at most 2048 characters.'), secret: string('Optional: 16 to 256 visible ASCII characters; default, one is made.') }, ['url']),
  Webhook: object(
    {
      id: string(undefined, { format: 'uuid' }),
      url: string(),
      state: { enum: ['pending', 'enabled', 'disabled'] },
      stateReason: nullable('string'),
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
        verification: object(
          { verified: { type: 'boolean' }, status: { type: 'integer' }, reason: string(), error: nullable('string') },
          ['verified'],
        ),
      }),
    ],
  },
  Attempt: { type: 'object', required: ['at', 'outcome'], properties: { at: dateTime, outcome: string(), status: nullable('integer'), error: nullable('string'), durationMs: { type: 'integer' } } },
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
  Event: object({ id: string(), type: string('`pass.created`, `pass.updated`, `registration.created` …'), created: string(), data: { type: 'object' } }, ['id', 'type', 'data']),
  ApiKeyScope: { enum: ['read', 'passes', 'admin'] },
  ApiKeyRequest: object({ name: string(undefined, { minLength: 1, maxLength: 100 }), scopes: { type: 'array', items: ref('ApiKeyScope'), minItems: 1 } }),
  ApiKey: object({
    id: string(undefined, { format: 'uuid' }),
    name: string(),
    scopes: { type: 'array', items: ref('ApiKeyScope') },
    prefix: nullable('string', { description: 'The key\'s first characters (`pm_` and 8), to recognise it by.' }),
    created: dateTime,
    lastUsed: nullable('string', { format: 'date-time', description: 'To within a minute.' }),
  }),
  NewApiKey: { allOf: [ref('ApiKey'), object({ key: string('The key: shown this once, only its SHA-256 is stored.') })] },
  GoogleSaveLink: object({ url: string(), type: string(), classId: string(), objectId: string(), losses: { type: 'array', items: { type: 'object' } } }),
};

let document: Json | undefined;

/**
 * The OpenAPI 3.1 document of the whole service: the API under `/v1/`,
 * Apple's web service under `/wallet/`, Google Wallet's routes, and the
 * operations routes. Each operation names the API key scope it needs
 * (`x-scope`, and `security`).
 *
 * @example
 * ```ts
 * const spec = openApiDocument();
 * Object.keys(spec.paths as object); // ['/v1/templates', …]
 * ```
 */
export function openApiDocument(): Record<string, unknown> {
  document ??= {
    openapi: '3.1.0',
    info: {
      title: 'passmint pass service',
      version: '1',
      description:
        'Templates, passes, signed .pkpass downloads, webhooks with durable delivery, Apple\'s web service and Google Wallet. ' +
        'Send an API key as `Authorization: Bearer <key>`; its scopes (`read`, `passes`, `admin`) decide what it may call. ' +
        'Every refusal is an RFC 9457 problem with a stable `code`.',
    },
    servers: [{ url: '/' }],
    paths: Object.fromEntries(
      Object.entries(PATHS).map(([path, methods]) => [path, Object.fromEntries(Object.entries(methods).map(([method, spec]) => [method, operation(method, path, spec)]))]),
    ),
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key (`pm_…`). Its scopes: `read` (every GET), `passes` (create, change and delete passes), `admin` (everything).' },
        passToken: { type: 'apiKey', in: 'query', name: 'token', description: 'The pass\'s own authentication token: the download link a holder opens.' },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'The token given with `--metrics-token`.' },
        applePass: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`ApplePass <authenticationToken>`, as Wallet sends it.' },
      },
    },
  };
  return document;
}
