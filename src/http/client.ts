import type { Report } from '../issues.js';
import { validatePass } from '../pass/validate.js';
import { validateTemplate } from '../template/validate.js';
import type { Pass, PassTemplate } from '../types.js';
import { timeLimit } from '../time-limit.js';
import { ApiError } from './api-error.js';
import { createProblem } from './problem.js';
import { readCappedText } from './read-body.js';
import { readProblem } from './read-problem.js';
import { isVisibleAscii } from './visible-ascii.js';

/**
 * The part of `fetch` the client uses; `globalThis.fetch` and most wrappers fit.
 *
 * @example
 * ```ts
 * const logged: FetchLike = async (input, init) => {
 *   const response = await fetch(input, init);
 *   console.info(init.method, input, response.status);
 *   return response;
 * };
 * ```
 */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/**
 * What `createPassClient` needs.
 *
 * @example
 * ```ts
 * const options: PassClientOptions = {
 *   baseUrl: 'https://passes.example.com/api',
 *   apiKey: process.env.PASS_API_KEY!,
 *   headers: { 'user-agent': 'example-backend/1.0' },
 * };
 * ```
 */
export interface PassClientOptions {
  /** `http:` or `https:` URL the `/v1/…` paths are appended to; no query or fragment. */
  readonly baseUrl: string | URL;
  /** Sent as `Authorization: Bearer <apiKey>`; visible ASCII characters. */
  readonly apiKey: string;
  /** Defaults to the global `fetch`, looked up at each call. */
  readonly fetch?: FetchLike | undefined;
  /** Sent with every request; `Authorization` and `Accept` are always the client's own. */
  readonly headers?: HeadersInit | undefined;
  /**
   * Accept passes whose `webServiceURL` is plain `http://` (a development
   * server; see `validatePass`'s option of the same name). Default `false`.
   */
  readonly allowHttp?: boolean | undefined;
  /**
   * Give up on a call after this many milliseconds, reading the body
   * included: an integer from 1 to 2³¹−1, default 10 000. The call then
   * rejects with `ApiError` (`status` 0, `code: 'timeout'`).
   */
  readonly timeoutMs?: number | undefined;
  /**
   * Largest response body read, in bytes: an integer ≥ 1, default 1 MiB. A
   * longer body is abandoned as soon as it passes the cap (`ApiError`,
   * `code: 'response-too-large'`).
   */
  readonly maxResponseBytes?: number | undefined;
}

/**
 * Default time limit of one client call: 10 s.
 *
 * @example
 * ```ts
 * createPassClient({ baseUrl, apiKey, timeoutMs: DEFAULT_CLIENT_TIMEOUT_MS * 3 });
 * ```
 */
export const DEFAULT_CLIENT_TIMEOUT_MS = 10_000;

/**
 * Default cap on a response body the client reads: 1 MiB (passes and templates are a few KB).
 *
 * @example
 * ```ts
 * createPassClient({ baseUrl, apiKey, maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES / 4 });
 * ```
 */
export const DEFAULT_MAX_RESPONSE_BYTES: number = 1024 * 1024;

const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Options of one call.
 *
 * @example
 * ```ts
 * const options: PassRequestOptions = { signal: AbortSignal.timeout(5000) };
 * ```
 */
export interface PassRequestOptions {
  /** Aborting it rejects the call with the signal's reason (an `AbortError` by default). */
  readonly signal?: AbortSignal | undefined;
  /** This call's time limit, instead of the client's `timeoutMs`. */
  readonly timeoutMs?: number | undefined;
}

/**
 * A client for the two GET endpoints of a pass service.
 *
 * @example
 * ```ts
 * const pass: Pass = await client.getPassJson('pass.com.example.member', 'a/b c');
 * ```
 */
export interface PassClient {
  /**
   * `GET /v1/passes/{passTypeIdentifier}/{serialNumber}/passjson`, checked with
   * `validatePass`. Rejects with `TypeError`/`RangeError` for an argument that
   * cannot be sent (not a string, `''`, `'.'`, `'..'`, a lone surrogate), with
   * the signal's reason when the caller aborts, and with {@link ApiError} for
   * everything else: the server refuses, sends something invalid or too
   * large, does not answer in time, or cannot be reached.
   */
  getPassJson(passTypeIdentifier: string, serialNumber: string, options?: PassRequestOptions): Promise<Pass>;
  /**
   * `GET /v1/templates/{id}`, checked with `validateTemplate`. Rejects with
   * `TypeError`/`RangeError` when `id` is not a positive safe integer, with
   * the signal's reason when the caller aborts, and with {@link ApiError} for
   * everything else (as `getPassJson`).
   */
  getTemplate(id: number, options?: PassRequestOptions): Promise<PassTemplate>;
}

/**
 * Makes a client for `GET /v1/passes/…/passjson` and `GET /v1/templates/{id}`.
 *
 * Every path segment is encoded with `encodeURIComponent`, so spaces, `/`,
 * `%` and any Unicode text reach the server's lookup exactly as given. A
 * non-2xx answer becomes an {@link ApiError} carrying the RFC 9457 problem; a
 * 2xx answer is parsed and validated with the core's validators and must be
 * the pass or template that was asked for.
 *
 * The server is not trusted: bodies are read up to `maxResponseBytes`
 * (1 MiB), each call has a time limit (`timeoutMs`, 10 s, combined with the
 * caller's `signal`), and a problem body is checked member by member. What
 * comes back is a validated object or an `ApiError` — a network failure too
 * (`status` 0, `code: 'network-error'`) — never a `TypeError` from the
 * server's bytes.
 *
 * @throws {TypeError} when `baseUrl` is not an absolute http(s) URL without
 * query or fragment, `apiKey` is not a non-empty string of visible ASCII, or
 * `timeoutMs` / `maxResponseBytes` is not a number.
 * @throws {RangeError} when `timeoutMs` is not an integer from 1 to 2³¹−1 or
 * `maxResponseBytes` not an integer ≥ 1.
 *
 * @example
 * ```ts
 * const client = createPassClient({ baseUrl: 'https://passes.example.com', apiKey: process.env.PASS_API_KEY! });
 * const template = await client.getTemplate(7, { signal: AbortSignal.timeout(5000) });
 * ```
 */
export function createPassClient(options: PassClientOptions): PassClient {
  const prefix = basePrefix(options.baseUrl);
  const { apiKey } = options;
  const passChecks = { allowHttp: options.allowHttp === true };
  if (typeof apiKey !== 'string' || !isVisibleAscii(apiKey)) {
    throw new TypeError('createPassClient: `apiKey` must be a non-empty string of visible ASCII characters');
  }
  const custom = options.fetch;
  if (custom !== undefined && typeof custom !== 'function') {
    throw new TypeError('createPassClient: `fetch` must be a function');
  }
  const send: FetchLike = custom ?? ((input, init) => globalThis.fetch(input, init));
  const defaultTimeoutMs = checkInteger('createPassClient', 'timeoutMs', options.timeoutMs, DEFAULT_CLIENT_TIMEOUT_MS, MAX_TIMER_MS);
  const maxResponseBytes = checkInteger('createPassClient', 'maxResponseBytes', options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES, Number.MAX_SAFE_INTEGER);
  const common = new Headers(options.headers);
  common.set('accept', 'application/json');
  common.set('authorization', `Bearer ${apiKey}`);

  async function get(path: string, requestOptions: PassRequestOptions | undefined): Promise<[unknown, Response]> {
    const timeoutMs = checkInteger('getPassJson/getTemplate', 'timeoutMs', requestOptions?.timeoutMs, defaultTimeoutMs, MAX_TIMER_MS);
    const signal = requestOptions?.signal;
    if (signal?.aborted === true) throw signal.reason;
    const limit = timeLimit(timeoutMs, signal);
    const { cutShort } = limit;
    const init: RequestInit = { method: 'GET', headers: new Headers(common), signal: limit.signal };
    let response: Response;
    let text: string;
    try {
      response = await Promise.race([Promise.resolve().then(() => send(prefix + path, init)), cutShort]);
      if (!isResponse(response)) throw new TypeError('fetch did not return a Response');
      if (response.type === 'error') throw new TypeError('fetch returned a network error');
      text = await Promise.race([readCappedText(response, maxResponseBytes), cutShort]);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (limit.timedOut) throw new ApiError(0, createProblem('timeout', 0, `No response within ${timeoutMs} ms.`), { cause: error });
      // Read afresh: the check before the request narrowed `aborted` to false.
      if (aborted(signal)) throw signal?.reason;
      throw new ApiError(0, createProblem('network-error', 0, 'The request failed before a complete response arrived.'), {
        cause: error,
      });
    } finally {
      limit.dispose();
    }
    // The status, not `ok`: a fetch stand-in may not set `ok`.
    if (response.status < 200 || response.status > 299) throw new ApiError(response.status, readProblem(response, text));
    try {
      return [JSON.parse(text), response];
    } catch {
      throw invalidResponse(response, 'The body of the response is not JSON.');
    }
  }

  return {
    async getPassJson(passTypeIdentifier, serialNumber, requestOptions) {
      const path = `/v1/passes/${encodeSegment('passTypeIdentifier', passTypeIdentifier)}/${encodeSegment('serialNumber', serialNumber)}/passjson`;
      const [value, response] = await get(path, requestOptions);
      checkReport(response, validatePass(value, passChecks), 'pass');
      const pass = value as Pass;
      if (pass.passTypeIdentifier !== passTypeIdentifier || pass.serialNumber !== serialNumber) {
        throw invalidResponse(
          response,
          `The server sent pass ${JSON.stringify(pass.serialNumber)} of type ${JSON.stringify(pass.passTypeIdentifier)}, not the one asked for.`,
        );
      }
      return pass;
    },

    async getTemplate(id, requestOptions) {
      if (typeof id !== 'number') throw new TypeError('getTemplate: `id` must be a number');
      if (!Number.isSafeInteger(id) || id < 1) throw new RangeError(`getTemplate: \`id\` must be a positive safe integer, not ${id}`);
      const [value, response] = await get(`/v1/templates/${id}`, requestOptions);
      checkReport(response, validateTemplate(value), 'template');
      const template = value as PassTemplate;
      if (template.id !== id) {
        throw invalidResponse(response, `The server sent template ${template.id}, not ${id}.`);
      }
      return template;
    },
  };
}

function basePrefix(baseUrl: string | URL): string {
  let url: URL;
  try {
    url = new URL(String(baseUrl));
  } catch {
    throw new TypeError('createPassClient: `baseUrl` must be an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError('createPassClient: `baseUrl` must be an http: or https: URL');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError('createPassClient: `baseUrl` must not have a query or fragment');
  }
  let end = url.href.length;
  while (end > 0 && url.href.charCodeAt(end - 1) === 0x2f) end--;
  return url.href.slice(0, end);
}

function encodeSegment(name: string, value: unknown): string {
  if (typeof value !== 'string') throw new TypeError(`getPassJson: \`${name}\` must be a string`);
  if (value === '') throw new RangeError(`getPassJson: \`${name}\` must not be empty`);
  // URL parsers resolve "." and ".." (and "%2E%2E") as dot-segments, so no URL can carry them.
  if (value === '.' || value === '..') {
    throw new RangeError(`getPassJson: \`${name}\` cannot be "${value}": no URL path can carry it`);
  }
  try {
    return encodeURIComponent(value);
  } catch {
    throw new RangeError(`getPassJson: \`${name}\` contains a lone surrogate, which no URL can carry`);
  }
}

function checkReport(response: Response, report: Report, what: 'pass' | 'template'): void {
  if (report.ok) return;
  // ApiError (a PassmintError) appends the first error issue and its path to the message.
  const detail = `The server sent a ${what} that ${what === 'pass' ? 'validatePass' : 'validateTemplate'} rejects.`;
  throw new ApiError(response.status, { ...createProblem('invalid-response', response.status, detail), issues: report.issues });
}

function invalidResponse(response: Response, detail: string): ApiError {
  return new ApiError(response.status, createProblem('invalid-response', response.status, detail));
}

/** A value as a checked integer option: `fallback` when undefined; TypeError / RangeError otherwise. */
function checkInteger(where: string, name: string, value: unknown, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number') throw new TypeError(`${where}: \`${name}\` must be a number`);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw new RangeError(`${where}: \`${name}\` must be an integer from 1 to ${max}, not ${value}`);
  }
  return value;
}

function isResponse(value: unknown): value is Response {
  return (
    typeof value === 'object' && value !== null && typeof (value as Response).status === 'number' && typeof (value as Response).headers?.get === 'function'
  );
}

function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
