// The audit log: every change made through the API recorded from the route's declaration (its
// `audit` action), and `GET /v1/audit` to read it. Nothing changes or deletes an entry through the API.
import { ServiceProblem } from '../../http/problem.js';
import { type AuditFilter, type AuditInput, type AuditRecord, listAudit, recordAudit } from '../db/audit.js';
import { isDatabaseUnavailable } from '../db/database-errors.js';
import type { Caller } from '../db/keys.js';
import type { SqlDatabase } from '../db/sql.js';
import { isCalendarDay } from '../http/calendar.js';
import type { LogSink } from '../http/log.js';
import { page, readPage } from '../http/paging.js';
import type { RouteSeen } from '../http/router.js';
import { defineRoute, type Route } from './define.js';
import { badPage, jsonAnswer, paging, queryParameter } from './docs.js';
import { json } from './responses.js';
import { type Json, nullable, object, string } from './schemas.js';

const MAX_FILTER = 1000;

/** The JSON shape of an entry of the log. */
export function auditResource(record: AuditRecord): Record<string, unknown> {
  return {
    seq: record.seq,
    time: record.time.toISOString(),
    actor: { id: record.actorId, name: record.actorName },
    via: record.via,
    address: record.address,
    action: record.action,
    target: record.target,
    status: record.status,
    problem: record.problem,
    requestId: record.requestId,
  };
}

const auditEntry: Json = object({
  seq: { type: 'integer', minimum: 1, description: 'The place of the entry in the log (its cursor).' },
  time: { type: 'string', format: 'date-time' },
  actor: object({
    id: string("The API key's id, or `command-line` for `passmint serve keys`."),
    name: string("The API key's name, or `command line`."),
  }),
  via: { enum: ['key', 'session', 'command'], description: 'An API key, a console session (acting with its key), or the command on the database.' },
  address: nullable('string', { description: "The client's address (behind a proxy only with `--trust-proxy`); `null` for the command line." }),
  action: string('What was done: `key.create`, `template.update`, `webhook.secret`, …'),
  target: nullable('string', { description: 'The path of the resource acted on (`/v1/templates/7`).' }),
  status: { type: 'integer', description: 'The outcome: the HTTP status answered.' },
  problem: nullable('string', { description: "The problem's `code` when the change was refused or failed." }),
  requestId: nullable('string', { description: 'The `X-Request-Id` of the call (the same as its request log line).' }),
});

const FIRST_TIME = Date.parse('0001-01-01T00:00:00Z');
const LAST_TIME = Date.parse('9999-12-31T23:59:59.999Z');

/** Reads the filters of `GET /v1/audit`; a bad one is a 400 `invalid-query`. */
function readFilter(url: URL): AuditFilter {
  const text = (name: string): string | undefined => {
    const value = url.searchParams.get(name);
    if (value === null) return undefined;
    if (value === '' || value.length > MAX_FILTER) throw new ServiceProblem(400, 'invalid-query', `\`${name}\` must be 1 to ${MAX_FILTER} characters.`);
    // PostgreSQL's text holds no NUL: no entry has one.
    if (value.includes('\u0000')) throw new ServiceProblem(400, 'invalid-query', `\`${name}\` must not hold a NUL character.`);
    return value;
  };
  const time = (name: string): Date | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    const date = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/.test(value) ? new Date(value) : undefined;
    // Years 1 to 9999 (PostgreSQL's timestamps start at 4713 BC, JavaScript's year 0 is not one of them).
    if (date === undefined || Number.isNaN(date.getTime()) || date.getTime() < FIRST_TIME || date.getTime() > LAST_TIME || !isCalendarDay(value)) {
      throw new ServiceProblem(400, 'invalid-query', `\`${name}\` must be a date or a date and time with its zone (RFC 3339: 2026-01-31T12:00:00Z).`);
    }
    return date;
  };
  return { action: text('action'), actor: text('actor'), target: text('target'), from: time('from'), to: time('to') };
}

/** The audit log, read only. */
export const auditRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/v1/audit',
    auth: 'admin',
    summary: 'Read the audit log',
    description:
      'Every change made with an API key, a console session or `passmint serve keys`: who (the key), how, from where, what, on what, and the outcome. Newest first unless read `after` a cursor. Nothing changes or deletes an entry through the API; entries older than the audit retention (365 days by default) are deleted.',
    query: [
      ...paging,
      queryParameter('action', 'Only this action (`key.create`).'),
      queryParameter('actor', 'Only the changes of this API key (its id), or `command-line`.'),
      queryParameter('target', 'Only the changes of this resource (its path: `/v1/templates/7`).'),
      queryParameter('from', 'Only entries at or after this time (RFC 3339).', { type: 'string', format: 'date-time' }),
      queryParameter('to', 'Only entries before this time (RFC 3339).', { type: 'string', format: 'date-time' }),
    ],
    responses: {
      200: jsonAnswer(object({ items: { type: 'array', items: auditEntry }, next: nullable('string') }), 'A page of the log.'),
      400: badPage,
    },
    handler: async ({ url }, { db }) => {
      const query = readPage(url, 'before');
      const filter = readFilter(url);
      return json(page(await listAudit(db, filter, query), query, (record) => record.seq, auditResource));
    },
  }),
];

/**
 * The path of the resource a call acted on: the request's path up to the
 * route's last parameter (`POST /v1/webhooks/{id}/secret` → `/v1/webhooks/…`);
 * for a route without parameters (a create), the new resource's `Location`,
 * else the route's path.
 */
function targetOf(route: Route, params: Readonly<Record<string, string>>, response: Response): string {
  const parts = route.pattern.parts;
  let last = -1;
  parts.forEach((part, index) => {
    if (part.kind !== 'literal') last = index;
  });
  if (last === -1) {
    const location = response.headers.get('location');
    if (location !== null) {
      try {
        // Only the API's own resources: a share page's address is a link that opens passes without a key.
        const path = new URL(location, 'http://x').pathname;
        if (path.startsWith('/v1/')) return path;
      } catch {
        // Not a URL: the route's path below.
      }
    }
    return route.pattern.path;
  }
  return parts
    .slice(0, last + 1)
    .map((part) => {
      if (part.kind === 'literal') return part.text;
      const value = params[part.name] ?? '';
      return part.kind === 'rest' ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
    })
    .join('/');
}

/**
 * Records the calls of the API that change something, as the handler answers
 * them: see {@link createAuditTrail}.
 */
export interface AuditTrail {
  /**
   * Records the call when its route is audited and a key or session was
   * accepted for it (`undefined` at once otherwise: nothing to wait for);
   * never rejects (a failure goes to `onError`).
   */
  record(request: Request, seen: RouteSeen<Caller>, response: Response, requestId: string): Promise<void> | undefined;
}

/**
 * The audit trail of a service: a call is recorded when its route declares
 * an `audit` action (every POST, PUT and DELETE under `/v1/` unless the
 * route opts out) and an API key or console session was accepted for it —
 * with the key, how it came, the client's address, the action, the target,
 * the status and the problem's code — in the database, awaited before the
 * answer goes, and as an `audit` log line. While the database cannot be
 * reached the log line is still written (with `seq: null`), and the outage
 * is not reported as an error each time (the request's own answer says it).
 *
 * @example
 * ```ts
 * const trail = createAuditTrail({ db, routes: API_ROUTES, addressOf: (request) => guard.addressOf(request), onError: console.error });
 * await trail.record(request, seen, response, requestId);
 * ```
 */
export function createAuditTrail(options: {
  readonly db: SqlDatabase;
  readonly routes: readonly Route[];
  readonly addressOf: (request: Request) => string | undefined;
  readonly log?: LogSink | undefined;
  readonly onError: (error: unknown) => void;
}): AuditTrail {
  const audited = new Map<object, Route>(options.routes.filter((route) => route.audit !== undefined).map((route) => [route, route]));

  const write = async (request: Request, seen: RouteSeen<Caller>, route: Route, caller: Caller, response: Response, requestId: string): Promise<void> => {
    const entry: AuditInput = {
      actorId: caller.id,
      actorName: caller.name,
      via: caller.via,
      address: options.addressOf(request) ?? null,
      action: route.audit!,
      target: targetOf(route, seen.params ?? {}, response),
      status: response.status,
      problem: await problemCodeOf(response),
      requestId,
    };
    let stored: AuditRecord | undefined;
    try {
      stored = await recordAudit(options.db, entry);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) options.onError(error);
    }
    options.log?.({
      time: (stored?.time ?? new Date()).toISOString(),
      type: 'audit',
      seq: stored?.seq ?? null,
      actor: entry.actorId,
      actorName: entry.actorName,
      via: entry.via,
      address: entry.address,
      action: entry.action,
      target: entry.target,
      status: entry.status,
      problem: entry.problem,
      requestId,
    });
  };

  return {
    record(request, seen, response, requestId) {
      const route = seen.matched === undefined ? undefined : audited.get(seen.matched);
      const caller = seen.caller;
      if (route === undefined || caller === undefined) return undefined;
      return write(request, seen, route, caller, response, requestId).catch(options.onError);
    },
  };
}

/** The `code` of a problem answer (`application/problem+json`), else `null`. */
async function problemCodeOf(response: Response): Promise<string | null> {
  if (response.status < 400 || !(response.headers.get('content-type') ?? '').startsWith('application/problem+json')) return null;
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    return typeof body.code === 'string' ? body.code : null;
  } catch {
    return null;
  }
}
