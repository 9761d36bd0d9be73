// The OpenAPI 3.1 document, read from the routes' declarations: each
// operation's parameters from its path, its security and `x-scope` from its
// `auth` (the same value the router enforces), the problems every call may
// answer from its access and path.
import type { RouteDocs } from './define.js';
import { problemAnswer } from './docs.js';
import { type Json, SCHEMAS } from './schemas.js';

/** What each path parameter is, by name (a name used in a path must be here). */
const PATH_PARAMETERS: Readonly<Record<string, string>> = {
  id: "The resource's id.",
  type: 'The pass type identifier (`pass.com.example.member`).',
  serial: 'The serial number, percent-encoded.',
  path: 'A file path inside the bundle (`logo.png`, `en.lproj/pass.strings`); its segments separated by `/`.',
  template: 'The template id.',
  hash: 'The SHA-256 of the image, hex.',
  deviceLibraryIdentifier: "The device's library identifier (Wallet's).",
  passTypeIdentifier: 'The pass type identifier.',
  serialNumber: 'The serial number.',
};

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

/** A route's `security`, and the scope it documents as `x-scope` (an API key is the only way in). */
function securityOf(route: RouteDocs): { readonly security: Json[]; readonly keyOnly: string | undefined } {
  const { auth } = route;
  if (auth === 'public') return { security: [], keyOnly: undefined };
  if (auth === 'apple-pass') return { security: [{ applePass: [] }], keyOnly: undefined };
  if (typeof auth === 'string') return { security: [{ apiKey: [auth] }], keyOnly: auth };
  if (auth.or === undefined) return { security: [{ apiKey: [auth.scope] }], keyOnly: auth.scope };
  return { security: [{ apiKey: [auth.scope] }, auth.or === 'pass-token' ? { passToken: [] } : { metricsToken: [] }], keyOnly: undefined };
}

/** One operation in OpenAPI form. */
function operation(route: RouteDocs): Json {
  const path = route.pattern.template;
  const method = route.method.toLowerCase();
  const { security, keyOnly } = securityOf(route);
  const responses: Record<string, Json> = Object.fromEntries(Object.entries(route.responses));
  if (route.auth !== 'public') responses['401'] ??= problemAnswer('No credentials, or wrong ones (`missing-credentials`, `invalid-credentials`).');
  if (keyOnly !== undefined) responses['403'] ??= problemAnswer(`The API key lacks the \`${keyOnly}\` scope (\`insufficient-scope\`).`);
  if (path.startsWith('/v1/')) {
    responses['503'] ??= problemAnswer('The database is unavailable (`database-unavailable`); `Retry-After` says when to try again.');
  }
  responses['default'] = problemAnswer('Any other refusal or failure: an RFC 9457 problem with a stable `code`.');
  const parameters = [
    ...route.pattern.names.map((name) => {
      const description = PATH_PARAMETERS[name];
      if (description === undefined) throw new TypeError(`The path parameter ${name} of ${path} is not described in PATH_PARAMETERS`);
      return { name, in: 'path', required: true, description, schema: { type: 'string' } };
    }),
    ...(route.query ?? []),
  ];
  return {
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    operationId: `${method}${path.replace(/\{([^}]+)\}/g, 'By-$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase())}`,
    tags: [tagOf(path, route.summary)],
    ...(keyOnly === undefined ? {} : { 'x-scope': keyOnly }),
    security,
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(route.body === undefined ? {} : { requestBody: route.body }),
    responses,
  };
}

/**
 * The OpenAPI 3.1 document of these routes: the paths in the order the
 * routes come, each method an operation, and the component schemas.
 *
 * @example
 * ```ts
 * const spec = describeApi([...API_ROUTES, ...walletRouteDocs]);
 * Object.keys(spec.paths as object); // ['/v1/templates', …]
 * ```
 */
export function describeApi(routes: readonly RouteDocs[]): Record<string, unknown> {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of routes) {
    const methods = (paths[route.pattern.template] ??= {});
    methods[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'passmint pass service',
      version: '1',
      description:
        "Templates, passes, signed .pkpass downloads, webhooks with durable delivery, Apple's web service and Google Wallet. " +
        'Send an API key as `Authorization: Bearer <key>`; its scopes (`read`, `passes`, `admin`) decide what it may call. ' +
        'Every refusal is an RFC 9457 problem with a stable `code`.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key (`pm_…`). Its scopes: `read` (every GET), `passes` (create, change and delete passes), `admin` (everything).',
        },
        passToken: { type: 'apiKey', in: 'query', name: 'token', description: "The pass's own authentication token: the download link a holder opens." },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'The token given with `--metrics-token`.' },
        applePass: { type: 'apiKey', in: 'header', name: 'Authorization', description: '`ApplePass <authenticationToken>`, as Wallet sends it.' },
      },
    },
  };
}
