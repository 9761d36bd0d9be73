import type { Issue } from '../../issues.js';
import { API_KEY_SCOPES, createApiKey, findApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord, type ApiKeyScope } from '../db/keys.js';
import { isObject, readJson } from '../http/body.js';
import { baseUrl } from '../context.js';
import { type Kit, json, noContent } from './kit.js';
import { ServiceProblem } from '../http/problem.js';
import type { Route } from '../http/router.js';

/** The JSON shape of a key: never the key itself. */
export function keyResource(record: ApiKeyRecord): Record<string, unknown> {
  return {
    id: record.id,
    name: record.name,
    scopes: record.scopes,
    prefix: record.prefix,
    created: record.created.toISOString(),
    lastUsed: record.lastUsed === null ? null : record.lastUsed.toISOString(),
  };
}

const MAX_NAME = 100;

/**
 * A new key's name and scopes from a request body (or the command line):
 * a name of 1 to 100 characters without control characters, and one or
 * more of `read`, `passes`, `admin`. Throws a 422 `invalid-body` problem.
 */
export function keyRequest(body: unknown): { name: string; scopes: ApiKeyScope[] } {
  const usage = `Send { "name": "…" (1 to ${MAX_NAME} characters), "scopes": ["read" | "passes" | "admin", …] }.`;
  if (!isObject(body)) throw new ServiceProblem(422, 'invalid-body', usage);
  const { name, scopes } = body;
  const issues: Issue[] = [];
  if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME || /[\u0000-\u001f\u007f]/.test(name)) {
    issues.push({ severity: 'error', code: 'invalid-value', message: `\`name\` is 1 to ${MAX_NAME} characters without control characters`, path: '/name' });
  }
  if (!Array.isArray(scopes) || scopes.length === 0) {
    issues.push({ severity: 'error', code: 'invalid-value', message: '`scopes` is a non-empty array of "read", "passes", "admin"', path: '/scopes' });
  } else {
    scopes.forEach((scope, index) => {
      if (!API_KEY_SCOPES.includes(scope as ApiKeyScope)) {
        issues.push({ severity: 'error', code: 'invalid-value', message: `${JSON.stringify(scope)} is not a scope: "read", "passes" or "admin"`, path: `/scopes/${index}` });
      }
    });
  }
  if (issues.length > 0) throw new ServiceProblem(422, 'invalid-body', usage, { issues });
  return { name: name as string, scopes: [...new Set(scopes as ApiKeyScope[])] };
}

/** API keys: create (the key shown once), list, read, revoke. Every call needs `admin`. */
export function keyRoutes(kit: Kit): Route[] {
  const { context, db } = kit;
  const keyOf = async (id: string): Promise<ApiKeyRecord> => {
    const record = await findApiKey(db, id);
    if (record === undefined) throw new ServiceProblem(404, 'key-not-found', `No active API key ${JSON.stringify(id)} exists.`);
    return record;
  };
  return [
    {
      pattern: '/v1/keys',
      methods: {
        GET: async () => json({ items: (await listApiKeys(db)).map(keyResource) }),
        POST: async ({ request }) => {
          const { name, scopes } = keyRequest(await readJson(request, context.maxBodyBytes));
          const { key, record } = await createApiKey(db, { name, scopes });
          context.keys.invalidate();
          return json({ ...keyResource(record), key }, 201, { location: `${baseUrl(context, request)}/v1/keys/${record.id}` });
        },
      },
    },
    {
      pattern: '/v1/keys/:id',
      methods: {
        GET: async ({ params }) => json(keyResource(await keyOf(params[0]!))),
        DELETE: async ({ params }) => {
          if ((await revokeApiKey(db, params[0]!)) === undefined) await keyOf(params[0]!);
          context.keys.invalidate();
          return noContent();
        },
      },
    },
  ];
}
