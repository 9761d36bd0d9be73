import { BytesResponse } from '../http/bytes-response.js';

/**
 * A JSON answer (its bytes held: the listener writes them in one go).
 *
 * @example
 * ```ts
 * return json(record.template, 201, { location: `${origin}/v1/templates/${id}` });
 * ```
 */
export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  new BytesResponse(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });

/**
 * A 204 answer.
 *
 * @example
 * ```ts
 * return noContent();
 * ```
 */
export const noContent = (): Response => new Response(null, { status: 204 });
