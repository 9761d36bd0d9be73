import { readLimited } from '../../read-limited.js';
import { ServiceProblem } from '../../http/problem.js';

/** Reads a request body up to `maxBytes`; a larger one is a 413 problem, whatever Content-Length says. */
export async function readBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const bytes = await readLimited(request.body, maxBytes);
  if (bytes === undefined) throw tooLarge(maxBytes);
  return bytes;
}

/** Reads a JSON body: 415 for another media type, 413 over the limit, 400 for bad JSON. */
export async function readJson(request: Request, maxBytes: number): Promise<unknown> {
  const type = request.headers.get('content-type');
  if (type !== null && !/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    throw new ServiceProblem(415, 'unsupported-media-type', 'Send JSON with "Content-Type: application/json".');
  }
  return parseJson(await readBody(request, maxBytes));
}

/** Like {@link readJson}, but an empty body is `undefined` (an action whose body is optional). */
export async function readOptionalJson(request: Request, maxBytes: number): Promise<unknown> {
  const type = request.headers.get('content-type');
  const bytes = await readBody(request, maxBytes);
  if (bytes.byteLength === 0) return undefined;
  if (type !== null && !/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    throw new ServiceProblem(415, 'unsupported-media-type', 'Send JSON with "Content-Type: application/json".');
  }
  return parseJson(bytes);
}

function parseJson(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ServiceProblem(400, 'invalid-json', 'The body is not UTF-8.');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ServiceProblem(400, 'invalid-json', 'The body is not valid JSON.');
  }
}

/** A JSON object (not an array, not null): what every body here is. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether a parsed JSON value has an array or object more than `limit` levels
 * below it. Iterative, so any depth JSON.parse accepts costs linear time and
 * no stack: a body is stored as given (unused keys too), and serializing
 * 100,000 levels overflowed the stack (a 500).
 */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

function tooLarge(maxBytes: number): ServiceProblem {
  return new ServiceProblem(413, 'body-too-large', `The body is larger than ${maxBytes} bytes.`);
}
