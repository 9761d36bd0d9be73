import { matchPath, type PathPattern } from '../../http/path-pattern.js';
import { decodeSegment, pathOf } from '../../http/route.js';
import { ServiceProblem } from '../../http/problem.js';

/**
 * What a route's handler gets: the request, its named parameters (each
 * percent-decoded once), its URL, and who calls (`caller`: what the access
 * check answered; `undefined` when no key was checked or none was given).
 */
export interface RouteCall<TParams, TCaller = unknown> {
  readonly request: Request;
  readonly params: TParams;
  readonly url: URL;
  readonly caller: TCaller | undefined;
}

/**
 * One method of one path as the router serves it: the scope of API key it
 * checks before the handler runs (`undefined`: anyone may call, the handler
 * checks what it needs), and the handler, given `services` with each call.
 */
export interface RouterRoute<TScope extends string, TServices, TCaller = unknown> {
  readonly method: string;
  readonly pattern: PathPattern;
  readonly scope: TScope | undefined;
  /**
   * For a route whose handler checks access itself: the scope the router
   * checks only to tell the handler who calls (`caller`), refusing nothing.
   */
  readonly identify?: TScope | undefined;
  // A method, so a route that reads a richer caller serves a router whose check answers less (a test's).
  handler(call: RouteCall<Readonly<Record<string, string>>, TCaller>, services: TServices): Promise<Response>;
}

/** What an API key check answers: `ok` (the check itself is the caller the handler gets), or why not. */
export type AccessCheck<TCaller = { readonly id?: string }> =
  | ({ readonly ok: true } & TCaller)
  | { readonly ok: false; readonly reason: 'missing' | 'invalid' | 'forbidden' };

/**
 * Runs around the handler of every route: `keyId` is the id of the API key
 * the router checked (`undefined` for a route whose handler checks access
 * itself), `run` calls the handler with the request given (the idempotency
 * layer wraps POSTs with it).
 */
export type AroundHandler = (request: Request, url: URL, keyId: string | undefined, run: (request: Request) => Promise<Response>) => Promise<Response>;

const MAX_PATH = 8192;

/** Filled by the router for logs and metrics: the template of the route a request matched (`/v1/passes/{type}/{serial}`). */
export interface RouteSeen<TCaller = unknown> {
  route?: string;
  /** The route matched (its declaration), once the method was found. */
  matched?: RouterRoute<string, unknown, TCaller>;
  /** Its parameters, percent-decoded. */
  params?: Readonly<Record<string, string>>;
  /** Who called: the access check's answer, when a key was checked and accepted. */
  caller?: TCaller | undefined;
}

/** The routes of one path, by method in the order they were given. */
interface PathRoutes<TScope extends string, TServices, TCaller> {
  readonly pattern: PathPattern;
  readonly methods: Map<string, RouterRoute<TScope, TServices, TCaller>>;
}

/**
 * Dispatches a request: 414 for a path over 8192 characters, 404 outside
 * every route, 405 with `Allow` (HEAD wherever GET is), 401 without a valid
 * API key, 403 for a key without the route's scope, 400 for a parameter
 * that is not valid percent-encoded UTF-8 or holds a control character — in
 * that order, before any handler runs. HEAD is served by GET's handler.
 *
 * @example
 * ```ts
 * const route = createRouter(routes, services, keys.check);
 * const response = await route(request);
 * ```
 */
export function createRouter<TScope extends string, TServices, TCaller extends { readonly id?: string } = { readonly id?: string }>(
  routes: readonly RouterRoute<TScope, TServices, NoInfer<TCaller>>[],
  services: TServices,
  authorize: (request: Request, scope: TScope) => Promise<AccessCheck<TCaller>>,
  around?: AroundHandler,
): (request: Request, seen?: RouteSeen<TCaller>) => Promise<Response> {
  const paths: PathRoutes<TScope, TServices, TCaller>[] = [];
  for (const route of routes) {
    let path = paths.find((candidate) => candidate.pattern.path === route.pattern.path);
    if (path === undefined) paths.push((path = { pattern: route.pattern, methods: new Map() }));
    if (path.methods.has(route.method)) throw new TypeError(`createRouter: ${route.method} ${route.pattern.path} is declared twice`);
    path.methods.set(route.method, route);
  }
  return async (request, seen = {}) => {
    const path = pathOf(request.url);
    // 414 as the seed's GETs and Apple's web service answer it, not a 404 that says the route does not exist.
    if (path.length > MAX_PATH) throw new ServiceProblem(414, 'uri-too-long', `The path is longer than ${MAX_PATH} characters.`);
    const segments = path.split('/');
    let matched: { readonly routes: PathRoutes<TScope, TServices, TCaller>; readonly raw: Readonly<Record<string, string>> } | undefined;
    for (const candidate of paths) {
      const raw = matchPath(candidate.pattern, segments);
      if (raw !== undefined) {
        matched = { routes: candidate, raw };
        break;
      }
    }
    if (matched === undefined) throw new ServiceProblem(404, 'not-found', 'No such route; the API lives under /v1/.');
    const { routes: found, raw } = matched;
    seen.route = found.pattern.template;
    // HEAD is GET without the body (the caller drops it) wherever GET is served.
    const route = found.methods.get(request.method) ?? (request.method === 'HEAD' ? found.methods.get('GET') : undefined);
    if (route === undefined) {
      const allowed = [...found.methods.keys()];
      if (allowed.includes('GET') && !allowed.includes('HEAD')) allowed.splice(allowed.indexOf('GET') + 1, 0, 'HEAD');
      throw new ServiceProblem(405, 'method-not-allowed', `Allowed here: ${allowed.join(', ')}.`, { headers: { allow: allowed.join(', ') } });
    }
    seen.matched = route as RouterRoute<string, unknown, TCaller>;
    let caller: TCaller | undefined;
    if (route.scope !== undefined) {
      const check = await authorize(request, route.scope);
      if (!check.ok) throw refusal(check.reason, route.scope);
      caller = check;
    } else if (route.identify !== undefined) {
      // The handler decides: a key that is missing or wrong here refuses nothing.
      const check = await authorize(request, route.identify);
      if (check.ok) caller = check;
    }
    seen.caller = caller;
    const keyId = caller?.id;
    const params: Record<string, string> = {};
    for (const [name, text] of Object.entries(raw)) {
      const decoded = decodeSegment(text);
      if (decoded === undefined || decoded === '' || /[\u0000-\u001f\u007f]/.test(decoded)) {
        throw new ServiceProblem(400, 'invalid-path', 'A path segment is empty, not valid percent-encoded UTF-8, or holds a control character.');
      }
      params[name] = decoded;
    }
    seen.params = params;
    const url = new URL(request.url);
    if (around === undefined) return route.handler({ request, params, url, caller }, services);
    return around(request, url, keyId, (given) => route.handler({ request: given, params, url, caller }, services));
  };
}

/** The 401 or 403 problem for a key check that failed. */
function refusal(reason: 'missing' | 'invalid' | 'forbidden', scope: string): ServiceProblem {
  if (reason === 'forbidden') {
    return new ServiceProblem(403, 'insufficient-scope', `This API key lacks the "${scope}" scope this call needs.`, {
      headers: { 'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}"` },
    });
  }
  return reason === 'invalid'
    ? new ServiceProblem(401, 'invalid-credentials', 'The API key is not valid.', { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } })
    : new ServiceProblem(401, 'missing-credentials', 'Send an API key as "Authorization: Bearer <key>".', { headers: { 'www-authenticate': 'Bearer' } });
}
