// A route of the service, declared once: what it answers, who may call it,
// how it is documented, and its handler. The router, the scope check and the
// OpenAPI document are all read from these declarations.
import { compilePath, type PathParams, type PathPattern } from '../../http/path-pattern.js';
import type { ApiKeyScope, Caller } from '../db/keys.js';
import type { RouteCall, RouterRoute } from '../http/router.js';
import type { Json } from './schemas.js';
import { enforceTemplateAccess, type TemplateAccess, templateAccessOf } from './template-access.js';
import type { Services } from './services.js';

/** The methods the service's routes answer (HEAD is GET's, without the body). */
export type RouteMethod = 'GET' | 'PUT' | 'POST' | 'DELETE';

/**
 * Who may call a route:
 * - `'read'`, `'passes'`, `'admin'`: an API key with that scope; the router
 *   checks it before the handler runs (401, 403).
 * - `'public'`: anyone; the handler checks whatever it needs.
 * - `{ scope, checkedBy: 'handler' }`: an API key with that scope — or, with
 *   `or`, the pass's own token or the metrics token — checked by the handler
 *   itself (the seed's GETs, links a holder opens).
 * - `'apple-pass'`: Wallet's `ApplePass` token (Apple's web service, whose
 *   handler checks it).
 *
 * @example
 * ```ts
 * const download: RouteAuth = { scope: 'read', checkedBy: 'handler', or: 'pass-token' };
 * ```
 */
export type RouteAuth =
  | ApiKeyScope
  | 'public'
  | { readonly scope: ApiKeyScope; readonly checkedBy: 'handler'; readonly or?: 'pass-token' | 'metrics-token' }
  | 'apple-pass';

/**
 * What the OpenAPI document says of a route: its method, path and access,
 * a summary, the query parameters, the request body and the answers (each
 * an OpenAPI object; see `docs.ts` and `schemas.ts`).
 *
 * @example
 * ```ts
 * const docs: RouteDocs = { method: 'GET', pattern: compilePath('/healthz'), auth: 'public', summary: 'Operations: the process answers', responses: {} };
 * ```
 */
export interface RouteDocs {
  readonly method: RouteMethod;
  readonly pattern: PathPattern;
  readonly auth: RouteAuth;
  readonly summary: string;
  readonly description?: string;
  readonly query?: readonly Json[];
  /** The OpenAPI request body. */
  readonly body?: Json;
  /** The answers by status; 401, 403, 503 and `default` are added from `auth` and the path. */
  readonly responses: Readonly<Record<number, Json>>;
}

/**
 * A route as it is declared: `path` with named parameters (`{type}`, a final
 * `{path+}`), which reach the handler percent-decoded, typed by the path's
 * text.
 *
 * @example
 * ```ts
 * const spec: RouteSpec<'/v1/webhooks/{id}'> = {
 *   method: 'GET', path: '/v1/webhooks/{id}', auth: 'read', summary: 'Read a webhook registration', responses: {},
 *   handler: async ({ params }, { db }) => json(webhookResource(await webhookOf(db, params.id))),
 * };
 * ```
 */
export interface RouteSpec<TPath extends string> extends Omit<RouteDocs, 'pattern' | 'auth'> {
  readonly path: TPath;
  readonly auth: Exclude<RouteAuth, 'apple-pass'>;
  /**
   * The audit log's name for what a call of this route does
   * (`'template.publish'`); `false` for a change not recorded (see
   * docs/audit.md). Without it, a POST, PUT or DELETE under `/v1/` is
   * recorded under a name made from its method and path
   * (`POST /v1/webhooks/{id}/secret` → `webhook.secret`). Reads never are.
   */
  readonly audit?: string | false;
  /**
   * What a key limited to templates reaches here (see `TemplateAccess`);
   * by default read from the path — a template's, a pass's or a job's route
   * is checked before the handler, any other route refuses such a key (403).
   * `'filtered'`: a list whose handler narrows itself to `caller.templateIds`.
   */
  readonly templates?: 'filtered';
  readonly handler: (call: RouteCall<PathParams<TPath>, Caller>, services: Services) => Promise<Response>;
}

/**
 * A declared route: its documentation, and what the router serves — the
 * scope it checks (`auth` when that is a scope alone) and the handler.
 */
export interface Route extends RouteDocs {
  readonly scope: RouterRoute<ApiKeyScope, Services, Caller>['scope'];
  readonly identify: RouterRoute<ApiKeyScope, Services, Caller>['identify'];
  readonly handler: RouterRoute<ApiKeyScope, Services, Caller>['handler'];
  /** The audit log's name for a call of this route, `undefined` when calls are not recorded. */
  readonly audit: string | undefined;
  /** What a key limited to templates reaches here. */
  readonly templates: TemplateAccess;
}

/**
 * Declares a route of the service.
 *
 * @example
 * ```ts
 * export const webhookRead: Route = defineRoute({
 *   method: 'GET',
 *   path: '/v1/webhooks/{id}',
 *   auth: 'read',
 *   summary: 'Read a webhook registration',
 *   responses: { 200: jsonAnswer(ref('Webhook'), 'The registration.'), 404: problemAnswer('No such registration.') },
 *   handler: async ({ params }, { db }) => json(webhookResource(await webhookOf(db, params.id))),
 * });
 * ```
 */
export function defineRoute<const TPath extends string>(spec: RouteSpec<TPath>): Route {
  const { path, handler, audit, templates: declared, ...docs } = spec;
  const templates = declared ?? templateAccessOf(path);
  const serve = handler as Route['handler'];
  return {
    ...docs,
    pattern: compilePath(path),
    // The router checks a key only when the scope is the whole of the access; otherwise the handler does.
    scope: typeof spec.auth === 'string' && spec.auth !== 'public' ? spec.auth : undefined,
    // A route whose handler checks access still learns who calls, when a key is given.
    identify: typeof spec.auth === 'object' ? spec.auth.scope : undefined,
    audit: audit === false ? undefined : (audit ?? auditActionOf(spec.method, path)),
    templates,
    // The router gives exactly the pattern's names: the object PathParams<TPath> reads from the path's text.
    // A key limited to templates is checked first (no extra step for any other caller).
    handler: (call, services) =>
      (call.caller?.templateIds ?? null) === null || templates === 'filtered'
        ? serve(call, services)
        : enforceTemplateAccess(templates, call.params, call.caller!, services.db).then(() => serve(call, services)),
  };
}

/**
 * The documentation of a route another handler serves (Apple's web service,
 * under `/wallet/`).
 *
 * @example
 * ```ts
 * documentRoute({ method: 'POST', path: '/wallet/v1/log', auth: 'public', summary: 'Apple: log messages from devices', responses: {} });
 * ```
 */
export function documentRoute(docs: Omit<RouteDocs, 'pattern'> & { readonly path: string }): RouteDocs {
  const { path, ...rest } = docs;
  return { ...rest, pattern: compilePath(path) };
}

/**
 * The audit log's default name for a call: `undefined` for a read or a route
 * outside `/v1/`; otherwise the path's fixed segments after `/v1/`, each in
 * the singular, joined by dots, with the method's verb when the path does
 * not already end in one (`POST /v1/templates` → `template.create`,
 * `DELETE /v1/webhooks/{id}` → `webhook.delete`, `POST /v1/webhooks/{id}/secret`
 * → `webhook.secret`).
 *
 * @example
 * ```ts
 * auditActionOf('PUT', '/v1/templates/{id}'); // 'template.update'
 * ```
 */
export function auditActionOf(method: RouteMethod, path: string): string | undefined {
  if (method === 'GET' || !path.startsWith('/v1/')) return undefined;
  const segments = path.slice('/v1/'.length).split('/');
  const fixed = segments.filter((segment) => !segment.startsWith('{')).map(singular);
  // A path ending in a fixed word after a parameter names the action itself (`…/{id}/secret`).
  if (segments.length > 1 && segments.some((segment) => segment.startsWith('{')) && !(segments.at(-1) ?? '').startsWith('{')) return fixed.join('.');
  const verb = method === 'POST' ? 'create' : method === 'PUT' ? 'update' : 'delete';
  return [...fixed, verb].join('.');
}

/** A path's word in the singular: `passes` → `pass`, `templates` → `template`. */
function singular(word: string): string {
  if (word.endsWith('sses')) return word.slice(0, -2);
  return word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}
