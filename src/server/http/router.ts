import { decodeSegment, pathOf } from '../../http/route.js';
import type { ApiKeyScope, KeyCheck } from '../db/keys.js';
import { ServiceProblem } from './problem.js';
import { requiredScope } from '../routes/scopes.js';

/** What a route's action gets: the request, its decoded parameters, its URL. */
export interface RouteCall {
  readonly request: Request;
  readonly params: readonly string[];
  readonly url: URL;
}

export type Action = (call: RouteCall) => Promise<Response>;

/**
 * One route: literal segments, `:` for one parameter, a final `*` for the
 * rest of the path (a file path inside a bundle). `public` actions skip the
 * API key check (they check something else themselves).
 */
export interface Route {
  readonly pattern: string;
  readonly methods: Readonly<Partial<Record<string, Action>>>;
  readonly public?: readonly string[];
}

const MAX_PATH = 8192;

/** Filled by the router for logs and metrics: the pattern of the route a request matched. */
export interface RouteSeen {
  route?: string;
}

/**
 * Dispatches a request: 404 outside every route, 405 with `Allow`, 401
 * without a valid API key, 403 for a key without the route's scope
 * ({@link requiredScope}), 400 for a parameter that is not valid
 * percent-encoded UTF-8 — in that order, before any action runs.
 */
export function createRouter(
  routes: readonly Route[],
  authorize: (request: Request, scope: ApiKeyScope) => Promise<KeyCheck>,
): (request: Request, seen?: RouteSeen) => Promise<Response> {
  const compiled = routes.map((route) => ({ ...route, parts: route.pattern.split('/').slice(1) }));
  return async (request, seen = {}) => {
    const path = pathOf(request.url);
    // 414 as the seed's GETs and Apple's web service answer it, not a 404 that says the route does not exist.
    if (path.length > MAX_PATH) throw new ServiceProblem(414, 'uri-too-long', `The path is longer than ${MAX_PATH} characters.`);
    const segments = path.split('/').slice(1);
    let matched: { route: (typeof compiled)[number]; raw: string[] } | undefined;
    for (const route of compiled) {
      const raw = match(route.parts, segments);
      if (raw !== undefined) {
        matched = { route, raw };
        break;
      }
    }
    if (matched === undefined) throw new ServiceProblem(404, 'not-found', 'No such route; the API lives under /v1/.');
    const { route, raw } = matched;
    seen.route = route.pattern;
    // HEAD is GET without the body (the caller drops it) wherever GET is served.
    const action = route.methods[request.method] ?? (request.method === 'HEAD' ? route.methods['GET'] : undefined);
    if (action === undefined) {
      const allowed = Object.keys(route.methods);
      if (allowed.includes('GET') && !allowed.includes('HEAD')) allowed.splice(allowed.indexOf('GET') + 1, 0, 'HEAD');
      throw new ServiceProblem(405, 'method-not-allowed', `Allowed here: ${allowed.join(', ')}.`, { headers: { allow: allowed.join(', ') } });
    }
    const method = route.methods[request.method] === undefined ? 'GET' : request.method;
    if (route.public?.includes(method) !== true) {
      const scope = requiredScope(method, route.pattern);
      const check = await authorize(request, scope);
      if (!check.ok) throw refusal(check.reason, scope);
    }
    const params: string[] = [];
    for (const part of raw) {
      const decoded = decodeSegment(part);
      if (decoded === undefined || decoded === '' || /[\u0000-\u001f\u007f]/.test(decoded)) {
        throw new ServiceProblem(400, 'invalid-path', 'A path segment is empty, not valid percent-encoded UTF-8, or holds a control character.');
      }
      params.push(decoded);
    }
    return action({ request, params, url: new URL(request.url) });
  };
}

/** The 401 or 403 problem for a key check that failed. */
function refusal(reason: 'missing' | 'invalid' | 'forbidden', scope: ApiKeyScope): ServiceProblem {
  if (reason === 'forbidden') {
    return new ServiceProblem(403, 'insufficient-scope', `This API key lacks the "${scope}" scope this call needs.`, {
      headers: { 'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}"` },
    });
  }
  return reason === 'invalid'
    ? new ServiceProblem(401, 'invalid-credentials', 'The API key is not valid.', { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } })
    : new ServiceProblem(401, 'missing-credentials', 'Send an API key as "Authorization: Bearer <key>".', { headers: { 'www-authenticate': 'Bearer' } });
}

/** The raw parameter segments when the path matches; a `*` parameter joins the rest with `/`. */
function match(parts: readonly string[], segments: readonly string[]): string[] | undefined {
  const raw: string[] = [];
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    if (part === '*') {
      const rest = segments.slice(index);
      if (rest.length === 0 || rest.some((segment) => segment === '')) return undefined;
      // Decoded one by one and joined with '/': the action checks the joined path like any bundle path.
      raw.push(...rest);
      return raw;
    }
    const segment = segments[index];
    if (segment === undefined) return undefined;
    if (part.startsWith(':')) {
      if (segment === '') return undefined;
      raw.push(segment);
    } else if (part !== segment) return undefined;
  }
  return segments.length === parts.length ? raw : undefined;
}
