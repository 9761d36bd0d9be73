import { createHash } from 'node:crypto';
import { readBearerToken } from '../../http/bearer-auth.js';
import { ifNoneMatchMatches } from '../../http/etag.js';
import { appliedSchemaVersion } from '../db/health.js';
import { schemaVersion } from '../db/schema.js';
import type { SqlQueryable } from '../db/sql.js';
import { ServiceProblem } from '../../http/problem.js';
import { sameSecret } from '../http/same-secret.js';
import { defineRoute, type Route } from './define.js';
import { bytesAnswer, jsonAnswer, problemAnswer } from './docs.js';
import { json } from './responses.js';
import { object } from './schemas.js';

/** How long `/readyz` waits for the database. */
const READY_TIMEOUT_MS = 3000;

// Anyone may call /readyz: the calls that arrive while a query runs share it, so a flood holds
// at most one of the pool's connections (and a hung database gets one pending query, not thousands).
const running = new WeakMap<SqlQueryable, Promise<number | 'down'>>();

/** The database's schema version, or `'down'`: one query at a time per database, shared by the calls that wait. */
function readiness(db: SqlQueryable): Promise<number | 'down'> {
  let version = running.get(db);
  if (version === undefined) {
    version = appliedSchemaVersion(db)
      .catch(() => 'down' as const)
      .finally(() => running.delete(db));
    running.set(db, version);
  }
  return version;
}

/**
 * Operations: `/healthz` (the process answers), `/readyz` (the database
 * answers and its schema is this version's), `/metrics` (Prometheus text;
 * an API key or the metrics token). `/v1/openapi.json` is {@link openApiRoute}.
 */
export const opsRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/healthz',
    auth: 'public',
    summary: 'Operations: the process answers',
    responses: { 200: jsonAnswer(object({ status: { const: 'ok' } }), 'Up.') },
    handler: async () => json({ status: 'ok' }),
  }),
  defineRoute({
    method: 'GET',
    path: '/readyz',
    auth: 'public',
    summary: 'Operations: ready to serve',
    description: "The database answers and its schema is this version's.",
    responses: {
      200: jsonAnswer(object({ status: { const: 'ready' }, schemaVersion: { type: 'integer' } }), 'Ready.'),
      503: problemAnswer('Not ready (`not-ready`): the database does not answer, or its schema is behind.'),
    },
    handler: async (_call, { db }) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), READY_TIMEOUT_MS);
      });
      const answer = await Promise.race([readiness(db), late]);
      clearTimeout(timer);
      if (answer === 'late' || answer === 'down') {
        throw new ServiceProblem(503, 'not-ready', 'The database does not answer.', { headers: { 'retry-after': '5' } });
      }
      if (answer < schemaVersion()) {
        throw new ServiceProblem(503, 'not-ready', `The database's schema is at version ${answer}, this passmint needs ${schemaVersion()}.`, {
          headers: { 'retry-after': '5' },
        });
      }
      return json({ status: 'ready', schemaVersion: answer });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/metrics',
    auth: { scope: 'read', checkedBy: 'handler', or: 'metrics-token' },
    summary: 'Operations: Prometheus metrics',
    description: 'Text format 0.0.4. An API key (any scope) or the metrics token (`--metrics-token`).',
    responses: { 200: bytesAnswer('text/plain', 'The metrics.') },
    handler: async ({ request }, { context }) => {
      const token = context.metricsToken;
      const presented = readBearerToken(request.headers.get('authorization'));
      if (token === undefined || presented === undefined || !sameSecret(presented, token)) {
        const check = await context.keys.check(request, 'read');
        if (!check.ok) {
          throw new ServiceProblem(
            401,
            check.reason === 'missing' ? 'missing-credentials' : 'invalid-credentials',
            'Send an API key, or the metrics token, as "Authorization: Bearer <token>".',
            { headers: { 'www-authenticate': 'Bearer' } },
          );
        }
      }
      return new Response(await context.metrics.render(), { status: 200, headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' } });
    },
  }),
];

/**
 * `GET /v1/openapi.json`: the document `document()` makes, written and hashed
 * once, with a strong entity tag (a client holding it gets a 304).
 *
 * @example
 * ```ts
 * const route = openApiRoute(openApiDocument);
 * ```
 */
export function openApiRoute(document: () => Record<string, unknown>): Route {
  let answer: { readonly body: string; readonly etag: string } | undefined;
  return defineRoute({
    method: 'GET',
    path: '/v1/openapi.json',
    auth: 'public',
    summary: 'Operations: this document',
    responses: { 200: jsonAnswer({ type: 'object' }, 'OpenAPI 3.1.') },
    handler: async ({ request }) => {
      // Anyone may ask: the 74 KB document is written and hashed once, and a client holding it gets a 304.
      if (answer === undefined) {
        const body = JSON.stringify(document());
        answer = { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` };
      }
      const headers = { 'content-type': 'application/json; charset=utf-8', etag: answer.etag, 'cache-control': 'no-cache' };
      const condition = request.headers.get('if-none-match');
      if (condition !== null && ifNoneMatchMatches(condition, answer.etag)) return new Response(null, { status: 304, headers });
      return new Response(answer.body, { status: 200, headers });
    },
  });
}
