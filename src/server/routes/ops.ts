import { createHash } from 'node:crypto';
import { ifNoneMatchMatches } from '../../http/etag.js';
import { readBearerToken } from '../../http/bearer-auth.js';
import { type Kit, json } from './kit.js';
import { openApiDocument } from './openapi.js';
import { ServiceProblem } from '../http/problem.js';
import type { Route } from '../http/router.js';
import { sameSecret } from '../http/same-secret.js';
import { schemaVersion } from '../db/schema.js';

/** How long `/readyz` waits for the database. */
const READY_TIMEOUT_MS = 3000;

/**
 * Operations: `/healthz` (the process answers), `/readyz` (the database
 * answers and its schema is this version's), `/metrics` (Prometheus text;
 * an API key or the metrics token), `/v1/openapi.json`.
 */
export function opsRoutes(kit: Kit): Route[] {
  const { context, db } = kit;
  // Anyone may call /readyz: the calls that arrive while a query runs share it, so a flood holds
  // at most one of the pool's connections (and a hung database gets one pending query, not thousands).
  let running: Promise<number | 'down'> | undefined;
  let openApi: { readonly body: string; readonly etag: string } | undefined;
  const readiness = (): Promise<number | 'down'> => {
    running ??= db
      .query<{ version: number }>('select coalesce(max(version), 0)::int as version from passmint_migrations')
      .then((rows) => rows[0]?.version ?? 0, () => 'down' as const)
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  return [
    {
      pattern: '/healthz',
      methods: { GET: async () => json({ status: 'ok' }) },
      public: ['GET', 'HEAD'],
    },
    {
      pattern: '/readyz',
      methods: {
        GET: async () => {
          let timer: ReturnType<typeof setTimeout> | undefined;
          const late = new Promise<'late'>((resolve) => {
            timer = setTimeout(() => resolve('late'), READY_TIMEOUT_MS);
          });
          const version = readiness();
          const answer = await Promise.race([version, late]);
          clearTimeout(timer);
          if (answer === 'late' || answer === 'down') {
            throw new ServiceProblem(503, 'not-ready', 'The database does not answer.', { headers: { 'retry-after': '5' } });
          }
          if (answer < schemaVersion()) {
            throw new ServiceProblem(503, 'not-ready', `The database's schema is at version ${answer}, this passmint needs ${schemaVersion()}.`, { headers: { 'retry-after': '5' } });
          }
          return json({ status: 'ready', schemaVersion: answer });
        },
      },
      public: ['GET', 'HEAD'],
    },
    {
      pattern: '/metrics',
      methods: {
        GET: async ({ request }) => {
          const token = context.metricsToken;
          const presented = readBearerToken(request.headers.get('authorization'));
          if (token === undefined || presented === undefined || !sameSecret(presented, token)) {
            const check = await context.keys.check(request, 'read');
            if (!check.ok) {
              throw new ServiceProblem(401, check.reason === 'missing' ? 'missing-credentials' : 'invalid-credentials', 'Send an API key, or the metrics token, as "Authorization: Bearer <token>".', {
                headers: { 'www-authenticate': 'Bearer' },
              });
            }
          }
          return new Response(await context.metrics.render(), { status: 200, headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' } });
        },
      },
      public: ['GET', 'HEAD'],
    },
    {
      pattern: '/v1/openapi.json',
      methods: {
        GET: async ({ request }) => {
          // Anyone may ask: the 74 KB document is written and hashed once, and a client holding it gets a 304.
          openApi ??= openApiAnswer();
          const headers = { 'content-type': 'application/json; charset=utf-8', etag: openApi.etag, 'cache-control': 'no-cache' };
          const condition = request.headers.get('if-none-match');
          if (condition !== null && ifNoneMatchMatches(condition, openApi.etag)) return new Response(null, { status: 304, headers });
          return new Response(openApi.body, { status: 200, headers });
        },
      },
      public: ['GET', 'HEAD'],
    },
  ];
}

/** The OpenAPI document as sent, and its strong entity tag (base64url SHA-256). */
function openApiAnswer(): { readonly body: string; readonly etag: string } {
  const body = JSON.stringify(openApiDocument());
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` };
}
