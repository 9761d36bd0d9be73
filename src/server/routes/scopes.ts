import type { ApiKeyScope } from '../db/keys.js';

// The routes a `passes` key may call besides every GET: what a backend that issues passes needs.
const PASS_WRITES: ReadonlySet<string> = new Set([
  'POST /v1/templates/:id/passes',
  'PUT /v1/passes/:type/:serial/values',
  'DELETE /v1/passes/:type/:serial',
]);

/**
 * The scope an API key needs for a route (`pattern` as the router writes it,
 * `/v1/passes/:type/:serial`): `/v1/keys` needs `admin` whatever the method;
 * creating a pass, changing its values and deleting it need `passes`; every
 * other GET or HEAD needs `read`; every other change (templates and their
 * files, webhooks, replays) needs `admin`.
 *
 * @example
 * ```ts
 * requiredScope('PUT', '/v1/passes/:type/:serial/values'); // 'passes'
 * ```
 */
export function requiredScope(method: string, pattern: string): ApiKeyScope {
  if (pattern === '/v1/keys' || pattern.startsWith('/v1/keys/')) return 'admin';
  if (PASS_WRITES.has(`${method} ${pattern}`)) return 'passes';
  return method === 'GET' || method === 'HEAD' ? 'read' : 'admin';
}
