import type { Pass, PassTemplate } from '../types.js';
import { acceptsJson } from './accept.js';
import { readBearerToken, type Authenticate } from './bearer-auth.js';
import { entityTag, ifNoneMatchMatches } from './etag.js';
import { errorReporter } from './error-reporter.js';
import { problemResponse, type ProblemCode } from './problem.js';
import { decodeSegment, matchRoute, normalizeBasePath, parseTemplateId, pathOf } from './route.js';

/**
 * What a lookup may give back, now or as a promise: the object, or
 * `null`/`undefined` for "no such thing" (404).
 *
 * @example
 * ```ts
 * const findTemplate = (id: number): Found<PassTemplate> => templates.get(id);
 * ```
 */
export type Found<T> = T | null | undefined | PromiseLike<T | null | undefined>;

/**
 * What `createPassHandler` needs.
 *
 * @example
 * ```ts
 * const options: PassHandlerOptions = {
 *   authenticate: bearerAuth([process.env.API_KEY!]),
 *   findPass: (passTypeIdentifier, serialNumber) => passes.get(`${passTypeIdentifier}/${serialNumber}`),
 *   findTemplate: (id) => templates.get(id),
 *   basePath: '/api',
 * };
 * ```
 */
export interface PassHandlerOptions {
  /** Decides whether the request may read; only `true` lets it through. See {@link bearerAuth}. */
  readonly authenticate: Authenticate;
  /**
   * Looks a pass up by its two identifiers, percent-decoded exactly once.
   * They are untrusted text: `'../x'`, `'a/b'` or `'%2F'` arrive as such, so
   * use them as keys, never as file paths.
   */
  readonly findPass: (passTypeIdentifier: string, serialNumber: string, request: Request) => Found<Pass>;
  /** Looks a template up by its id, a positive safe integer. */
  readonly findTemplate: (id: number, request: Request) => Found<PassTemplate>;
  /** A prefix the routes live under, such as `'/api'`; slashes around it are normalized. */
  readonly basePath?: string | undefined;
  /**
   * Told about every error behind a 500 (a lookup or `authenticate` that
   * threw, a result that cannot be serialized), for logging. What it throws
   * is ignored.
   */
  readonly onError?: ((error: unknown, request: Request) => void) | undefined;
}

/**
 * A Fetch-API handler: `Request` in, `Response` out; it never rejects.
 *
 * @example
 * ```ts
 * const handler: PassHandler = createPassHandler({ authenticate, findPass, findTemplate });
 * export default { fetch: handler }; // Bun, Cloudflare Workers
 * ```
 */
export type PassHandler = (request: Request) => Promise<Response>;

/** Paths longer than this are answered 414 before anything else is looked at. */
const maxPathLength = 8192;

const encoder = new TextEncoder();
const jsonType = 'application/json; charset=utf-8';

/**
 * Serves `GET|HEAD {basePath}/v1/passes/{passTypeIdentifier}/{serialNumber}/passjson`
 * and `GET|HEAD {basePath}/v1/templates/{id}` as a Fetch-API handler that runs
 * unchanged in Deno, Bun, edge workers, Hono and (through an adapter) Node.
 *
 * Checks come in this order: 414 for a path over 8192 characters; 404
 * `not-found` for a path outside the two routes; 405 with `Allow: GET, HEAD`;
 * 401 with `WWW-Authenticate: Bearer`; 400 `invalid-path` /
 * `invalid-template-id`; 404 `pass-not-found` / `template-not-found`; 406 when
 * `Accept` excludes JSON; then 304 for a matching `If-None-Match`, else 200
 * with a strong `ETag`. A lookup that throws gives a 500 that shows nothing
 * of the error. The returned promise never rejects.
 *
 * @throws {TypeError} when an option is missing or of the wrong type.
 *
 * @example
 * ```ts
 * const handler = createPassHandler({
 *   authenticate: bearerAuth([process.env.API_KEY!]),
 *   findPass: (passTypeIdentifier, serialNumber) => db.findPass(passTypeIdentifier, serialNumber),
 *   findTemplate: (id) => db.findTemplate(id),
 * });
 * Deno.serve(handler); // or: export default { fetch: handler }
 * ```
 */
export function createPassHandler(options: PassHandlerOptions): PassHandler {
  const { authenticate, findPass, findTemplate, onError } = options;
  if (typeof authenticate !== 'function') throw new TypeError('createPassHandler: `authenticate` must be a function');
  if (typeof findPass !== 'function') throw new TypeError('createPassHandler: `findPass` must be a function');
  if (typeof findTemplate !== 'function') throw new TypeError('createPassHandler: `findTemplate` must be a function');
  if (onError !== undefined && typeof onError !== 'function') {
    throw new TypeError('createPassHandler: `onError` must be a function');
  }
  if (options.basePath !== undefined && typeof options.basePath !== 'string') {
    throw new TypeError('createPassHandler: `basePath` must be a string');
  }
  const basePath = normalizeBasePath(options.basePath ?? '');
  const routes = `GET ${basePath}/v1/passes/{passTypeIdentifier}/{serialNumber}/passjson` + ` and GET ${basePath}/v1/templates/{id}`;

  const report = errorReporter(onError);

  const handle = async (request: Request): Promise<Response> => {
    const head = request.method === 'HEAD';
    const url = request.url;
    const path = pathOf(url);
    if (path.length > maxPathLength) {
      return problem(head, 'uri-too-long', 414, `The path is longer than ${maxPathLength} characters.`);
    }

    const below = basePath === '' ? path : path.startsWith(basePath + '/') ? path.slice(basePath.length) : undefined;
    const route = below === undefined ? undefined : matchRoute(below);
    if (route === undefined) return problem(head, 'not-found', 404, `Nothing is served here; the routes are ${routes}.`);

    if (request.method !== 'GET' && !head) {
      return problem(head, 'method-not-allowed', 405, 'Only GET and HEAD are allowed here.', { allow: 'GET, HEAD' });
    }

    if ((await authenticate(request)) !== true) {
      const given = readBearerToken(request.headers.get('authorization')) !== undefined;
      return given
        ? problem(head, 'invalid-credentials', 401, 'The API key is not valid.', {
            'www-authenticate': 'Bearer error="invalid_token"',
          })
        : problem(head, 'missing-credentials', 401, 'Send an API key as "Authorization: Bearer <key>".', {
            'www-authenticate': 'Bearer',
          });
    }

    let found: unknown;
    if (route.kind === 'pass') {
      const passTypeIdentifier = decodeSegment(route.passTypeIdentifier);
      const serialNumber = decodeSegment(route.serialNumber);
      if (passTypeIdentifier === undefined || serialNumber === undefined) {
        return problem(head, 'invalid-path', 400, 'A path segment is not valid percent-encoded UTF-8.');
      }
      found = await findPass(passTypeIdentifier, serialNumber, request);
      if (found === undefined || found === null) {
        return problem(
          head,
          'pass-not-found',
          404,
          `No pass with serial number ${JSON.stringify(serialNumber)} and type ${JSON.stringify(passTypeIdentifier)} exists.`,
        );
      }
    } else {
      const decoded = decodeSegment(route.id);
      const id = decoded === undefined ? undefined : parseTemplateId(decoded);
      if (id === undefined) {
        return problem(head, 'invalid-template-id', 400, `A template id is a positive integer in decimal digits, at most ${Number.MAX_SAFE_INTEGER}.`);
      }
      found = await findTemplate(id, request);
      if (found === undefined || found === null) {
        return problem(head, 'template-not-found', 404, `No template with id ${id} exists.`);
      }
    }

    if (!acceptsJson(request.headers.get('accept'))) {
      return problem(head, 'not-acceptable', 406, 'This resource is only available as application/json.');
    }

    const json: unknown = JSON.stringify(found);
    if (typeof json !== 'string') throw new TypeError('The lookup returned a value that is not JSON');
    const body = encoder.encode(json);
    const etag = await entityTag(body);
    const ifNoneMatch = request.headers.get('if-none-match');
    if (ifNoneMatch !== null && ifNoneMatchMatches(ifNoneMatch, etag)) {
      return new Response(null, {
        status: 304,
        headers: { etag, 'cache-control': 'private, no-cache', vary: 'Accept' },
      });
    }
    return new Response(head ? null : body, {
      status: 200,
      headers: {
        'content-type': jsonType,
        'content-length': String(body.length),
        etag,
        'cache-control': 'private, no-cache',
        vary: 'Accept',
      },
    });
  };

  return async (request) => {
    try {
      return await handle(request);
    } catch (error) {
      report(error, request);
      return internalError(request);
    }
  };
}

function problem(head: boolean, code: ProblemCode, status: number, detail: string, headers?: Readonly<Record<string, string>>): Response {
  return problemResponse({ status, code, detail, headers }, { head });
}

function internalError(request: unknown): Response {
  let head = false;
  try {
    head = (request as { method?: unknown }).method === 'HEAD';
  } catch {
    // A request whose `method` getter throws is answered as a GET.
  }
  return problem(head, 'internal-error', 500, 'The server could not answer this request.');
}
