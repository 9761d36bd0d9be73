// The pieces a route's declaration documents itself with, in OpenAPI 3.1's
// shapes: its answers, its request body, its query parameters.
import { type Json, ref } from './schemas.js';

/**
 * A JSON answer: its schema and what it means (and headers it carries).
 *
 * @example
 * ```ts
 * jsonAnswer(ref('Pass'), 'The pass with its values.');
 * ```
 */
export const jsonAnswer = (schema: Json, description: string, headers?: Json): Json => ({
  description,
  content: { 'application/json': { schema } },
  ...(headers === undefined ? {} : { headers }),
});

/**
 * A problem answer (`application/problem+json`): when it comes, and its codes.
 *
 * @example
 * ```ts
 * problemAnswer('No such pass.');
 * ```
 */
export const problemAnswer = (description: string): Json => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });

/**
 * An answer without a body.
 *
 * @example
 * ```ts
 * emptyAnswer('Deleted.');
 * ```
 */
export const emptyAnswer = (description: string): Json => ({ description });

/**
 * An answer of bytes of one media type.
 *
 * @example
 * ```ts
 * bytesAnswer('image/png', 'The image.');
 * ```
 */
export const bytesAnswer = (mediaType: string, description: string, schema: Json = { type: 'string' }): Json => ({
  description,
  content: { [mediaType]: { schema } },
});

/** Every route anyone may call (Apple's web service, links opened with a pass's token) counts requests per address and per token. */
export const rateLimited: Json = problemAnswer('Too many requests from this address or for this pass (`rate-limited`); `Retry-After` says when to try again.');

/** The `Location` header of an answer that made a resource. */
export const location: Json = { location: { description: 'The new resource', schema: { type: 'string' } } };

/**
 * A JSON request body.
 *
 * @example
 * ```ts
 * jsonBody(ref('Values'));
 * ```
 */
export const jsonBody = (schema: Json, required = true): Json => ({ required, content: { 'application/json': { schema } } });

/**
 * A query parameter.
 *
 * @example
 * ```ts
 * queryParameter('templateId', 'Only passes made from this template.');
 * ```
 */
export const queryParameter = (name: string, description: string, schema: Json = { type: 'string' }): Json => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});

/** Every list pages both ways; a cursor no page gave is refused the same way on each. */
export const paging: readonly Json[] = [
  queryParameter('limit', 'Items per page, 1 to 100 (default 50).', { type: 'integer', minimum: 1, maximum: 100 }),
  queryParameter('after', 'The items after this cursor, oldest first: `0` for the oldest, or the `next` of a page read with `after`.'),
  queryParameter('before', 'The items before this cursor, newest first: `999999999999999` for the newest, or the `next` of a page read with `before`.'),
];

/** A list's answer to a bad cursor or limit. */
export const badPage: Json = problemAnswer(
  'A cursor that is not one a page gave, `after` and `before` together, or a `limit` outside 1–100 (`invalid-query`).',
);

/** The pass's own token, which opens its links instead of an API key. */
export const passToken: Json = queryParameter('token', "The pass's authentication token (the link in `links.pkpass`), instead of an API key.");
