import type { Issue } from '../../issues.js';
import { API_KEY_SCOPES, createApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord, type ApiKeyScope } from '../db/keys.js';
import { isObject, readJson } from '../http/body.js';
import { templateIdOf } from '../http/paging.js';
import { ServiceProblem } from '../../http/problem.js';
import { baseUrl } from './context.js';
import { defineRoute, type Route } from './define.js';
import { emptyAnswer, jsonAnswer, jsonBody, location, problemAnswer } from './docs.js';
import { found, keyOf } from './lookups.js';
import { json, noContent } from './responses.js';
import { type Json, object, ref } from './schemas.js';

/** The JSON shape of a key: never the key itself. */
export function keyResource(record: ApiKeyRecord): Record<string, unknown> {
  return {
    id: record.id,
    name: record.name,
    scopes: record.scopes,
    templateIds: record.templateIds === null ? null : record.templateIds.map(Number),
    prefix: record.prefix,
    created: record.created.toISOString(),
    lastUsed: record.lastUsed === null ? null : record.lastUsed.toISOString(),
  };
}

const MAX_NAME = 100;

const MAX_TEMPLATES = 1000;

/**
 * A new key's name and scopes from a request body (or the command line):
 * a name of 1 to 100 characters without control characters, one or more of
 * `read`, `passes`, `admin`, and optionally `templateIds` (1 to 1000
 * template ids) to limit it to those templates. Throws a 422 `invalid-body`
 * problem.
 */
export function keyRequest(body: unknown): { name: string; scopes: ApiKeyScope[]; templateIds: string[] | null } {
  const usage = `Send { "name": "…" (1 to ${MAX_NAME} characters), "scopes": ["read" | "passes" | "admin", …], "templateIds"?: [7, …] }.`;
  if (!isObject(body)) throw new ServiceProblem(422, 'invalid-body', usage);
  const { name, scopes, templateIds } = body;
  const issues: Issue[] = [];
  let limited: string[] | null = null;
  if (templateIds !== undefined && templateIds !== null) {
    if (!Array.isArray(templateIds) || templateIds.length === 0 || templateIds.length > MAX_TEMPLATES) {
      issues.push({
        severity: 'error',
        code: 'invalid-value',
        message: `\`templateIds\` is an array of 1 to ${MAX_TEMPLATES} template ids`,
        path: '/templateIds',
      });
    } else {
      limited = [];
      templateIds.forEach((id, index) => {
        const known = typeof id === 'number' && Number.isInteger(id) ? templateIdOf(String(id)) : undefined;
        if (known === undefined)
          issues.push({ severity: 'error', code: 'invalid-value', message: `${JSON.stringify(id)} is not a template id`, path: `/templateIds/${index}` });
        else limited!.push(String(known));
      });
    }
  }
  if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME || /[\u0000-\u001f\u007f]/.test(name)) {
    issues.push({ severity: 'error', code: 'invalid-value', message: `\`name\` is 1 to ${MAX_NAME} characters without control characters`, path: '/name' });
  }
  if (!Array.isArray(scopes) || scopes.length === 0) {
    issues.push({ severity: 'error', code: 'invalid-value', message: '`scopes` is a non-empty array of "read", "passes", "admin"', path: '/scopes' });
  } else {
    scopes.forEach((scope, index) => {
      if (!API_KEY_SCOPES.includes(scope as ApiKeyScope)) {
        issues.push({
          severity: 'error',
          code: 'invalid-value',
          message: `${JSON.stringify(scope)} is not a scope: "read", "passes" or "admin"`,
          path: `/scopes/${index}`,
        });
      }
    });
  }
  if (issues.length > 0) throw new ServiceProblem(422, 'invalid-body', usage, { issues });
  return { name: name as string, scopes: [...new Set(scopes as ApiKeyScope[])], templateIds: limited === null ? null : [...new Set(limited)] };
}

const templateIdsSchema: Json = {
  type: ['array', 'null'],
  items: { type: 'integer', minimum: 1 },
  minItems: 1,
  description: 'The templates the key is limited to: it sees and changes only them and their passes; `null` (or left out) for every template.',
};
const apiKeySchema: Json = { allOf: [ref('ApiKey'), object({ templateIds: templateIdsSchema })] };

/** API keys: create (the key shown once), list, read, revoke. Every call needs `admin`. */
export const keyRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/v1/keys',
    auth: 'admin',
    summary: 'List API keys',
    description: 'Never the keys themselves: their id, name, scopes and first characters.',
    responses: { 200: jsonAnswer(object({ items: { type: 'array', items: apiKeySchema } }), 'The active keys, oldest first.') },
    handler: async (_call, { db }) => json({ items: (await listApiKeys(db)).map(keyResource) }),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/keys',
    auth: 'admin',
    summary: 'Create an API key',
    description: 'With `templateIds`, the key sees and changes only those templates and their passes (see docs/service.md).',
    body: jsonBody({ allOf: [ref('ApiKeyRequest'), object({ templateIds: templateIdsSchema }, [])] }),
    responses: {
      201: jsonAnswer({ allOf: [ref('NewApiKey'), object({ templateIds: templateIdsSchema })] }, 'The key (shown this once) and its record.', location),
      422: problemAnswer('A bad name, scope or template id, or a template that does not exist (`invalid-body`, with `issues`).'),
    },
    handler: async ({ request }, { context, db }) => {
      const { name, scopes, templateIds } = keyRequest(await readJson(request, context.maxBodyBytes));
      const { key, record } = await createApiKey(db, { name, scopes, templateIds });
      context.keys.invalidate();
      return json({ ...keyResource(record), key }, 201, { location: `${baseUrl(context, request)}/v1/keys/${record.id}` });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/keys/{id}',
    auth: 'admin',
    summary: "Read an API key's record",
    responses: { 200: jsonAnswer(apiKeySchema, 'The record.'), 404: problemAnswer('No such active key (`key-not-found`).') },
    handler: async ({ params }, { db }) => json(keyResource(await keyOf(db, params.id))),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/keys/{id}',
    auth: 'admin',
    audit: 'key.revoke',
    summary: 'Revoke an API key',
    description: 'Every process refuses it within a second.',
    responses: { 204: emptyAnswer('Revoked.'), 404: problemAnswer('No such active key.') },
    handler: async ({ params }, { context, db }) => {
      await found(revokeApiKey(db, params.id), 'key-not-found', `No active API key ${JSON.stringify(params.id)} exists.`);
      context.keys.invalidate();
      return noContent();
    },
  }),
];
