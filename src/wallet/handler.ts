import { errorReporter } from '../http/error-reporter.js';
import { signPersonalizationToken } from '../pkpass/personalization-token.js';
import type { PassSigner } from '../pkpass/signer.js';
import { decodeSegment, normalizeBasePath, pathOf } from '../http/route.js';
import { createEvent } from '../webhooks/event.js';
import type { WebhookEventOf } from '../webhooks/event-types.js';
import { readApplePassToken, sameToken } from './apple-pass-auth.js';
import { formatHttpDate, parseHttpDate } from './http-date.js';
import { isIdentifier, isPushToken } from './identifiers.js';
import { readJsonBody } from './json-body.js';
import { readPersonalizationBody, type WalletPersonalization } from './personalization.js';
import { problemResponse, type WalletProblemCode } from '../http/problem.js';
import { allowedMethods, matchWalletRoute } from './route.js';
import type { WalletStore } from './store.js';

/**
 * What `findPass` gives for a pass Wallet asks about: the token to check, when
 * it last changed, and its latest `.pkpass` (bytes, or a function that makes
 * them — called only when the pass is actually sent, never for a 304 or a
 * registration).
 *
 * @example
 * ```ts
 * const found: WalletPass = {
 *   authenticationToken: pass.authenticationToken,
 *   lastModified: row.updatedAt,
 *   pkpass: () => packPass(pass, prepared, signer),
 * };
 * ```
 */
export interface WalletPass {
  /** The pass's own `authenticationToken`; the request's `ApplePass` token must equal it. */
  readonly authenticationToken: string;
  /** When the pass last changed: a `Date` or milliseconds since the epoch. Sent as `Last-Modified`. */
  readonly lastModified: Date | number;
  /** The latest `.pkpass` bytes, or a function giving them (typically `packPass`). */
  readonly pkpass: Uint8Array | (() => Uint8Array | PromiseLike<Uint8Array>);
}

/**
 * The events the handler reports: a pass added to (`registration.created`) or
 * removed from (`registration.deleted`) a device, and a user who signed up
 * through a rewards-enrollment pass (`pass.personalized`).
 */
export type WalletEvent = WebhookEventOf<'registration.created'> | WebhookEventOf<'registration.deleted'> | WebhookEventOf<'pass.personalized'>;

/**
 * What `createWalletHandler` needs.
 *
 * @example
 * ```ts
 * const options: WalletHandlerOptions = {
 *   store: createMemoryWalletStore(),
 *   findPass: (passTypeIdentifier, serialNumber) => passes.get(`${passTypeIdentifier}/${serialNumber}`),
 *   onEvent: (event) => outbox.add(event),
 *   basePath: '/wallet',
 * };
 * ```
 */
export interface WalletHandlerOptions {
  /** Registrations and update tags. */
  readonly store: WalletStore;
  /**
   * Looks a pass up by its two identifiers, percent-decoded exactly once;
   * `null`/`undefined` for none (answered 401, like a wrong token, so the
   * handler never tells which passes exist). They are untrusted text: use
   * them as keys, never as file paths.
   */
  readonly findPass: (
    passTypeIdentifier: string,
    serialNumber: string,
    request: Request,
  ) => WalletPass | null | undefined | PromiseLike<WalletPass | null | undefined>;
  /**
   * Told `registration.created` when a device registers a pass for the first
   * time (the seed's "pass added to a wallet application") and
   * `registration.deleted` when it unregisters. Awaited before the answer;
   * what it throws goes to `onError` and does not change the answer (the
   * registration stands), so make it durable (an outbox) rather than a
   * direct webhook call.
   */
  readonly onEvent?: ((event: WalletEvent, request: Request) => void | PromiseLike<void>) | undefined;
  /**
   * Rewards enrollment: told each signup Wallet posts to
   * `POST {base}/v1/passes/{passType}/{serial}/personalize` — the user's data
   * and the personalization token. Create the account and make the
   * personalized pass the one `findPass` gives from now on (with a later
   * `lastModified`); then the handler answers with the token signed by
   * `signer` and reports `pass.personalized` to `onEvent`. Apple sends no
   * token with this call, so anyone who knows a serial number can make it:
   * return `false` for a pass that takes no signup (its pass asks for none, or
   * it was personalized already) — answered 404 like an unknown pass, nothing
   * signed, nothing reported. What it throws is answered 500 and nothing is
   * signed. Without it the endpoint answers 404.
   */
  readonly onPersonalize?: ((personalization: WalletPersonalization, request: Request) => void | boolean | PromiseLike<void | boolean>) | undefined;
  /**
   * Signs personalization tokens (required with `onPersonalize`): the signer
   * of the passes' certificate, or a function choosing it by pass type.
   */
  readonly signer?: PassSigner | ((passTypeIdentifier: string) => PassSigner | PromiseLike<PassSigner>) | undefined;
  /** Told the messages a device posts to `/v1/log` (Wallet's own error reports). */
  readonly onLog?: ((logs: readonly string[], request: Request) => void | PromiseLike<void>) | undefined;
  /** Told about every error behind a 500, and every error of `onEvent`/`onLog`. What it throws is ignored. */
  readonly onError?: ((error: unknown, request: Request) => void) | undefined;
  /** A prefix the routes live under (the path of `webServiceURL`), such as `'/wallet'`. */
  readonly basePath?: string | undefined;
  /** Largest request body read, in bytes; default 65 536. A larger one is answered 413. */
  readonly maxBodyBytes?: number | undefined;
}

/**
 * A Fetch-API handler: `Request` in, `Response` out; it never rejects.
 *
 * @example
 * ```ts
 * const handler: WalletHandler = createWalletHandler({ store, findPass });
 * export default { fetch: handler };
 * ```
 */
export type WalletHandler = (request: Request) => Promise<Response>;

const maxPathLength = 8192;
const defaultMaxBodyBytes = 65_536;
const maxLogs = 1000;

/**
 * Apple's PassKit web service — the calls Wallet makes at a pass's
 * `webServiceURL` — as a Fetch-API handler that runs in every runtime:
 *
 * | call | answers |
 * |---|---|
 * | `POST {base}/v1/devices/{device}/registrations/{passType}/{serial}` `{"pushToken"}` | 201 registered, 200 already registered, 400, 401, 413 |
 * | `GET {base}/v1/devices/{device}/registrations/{passType}?passesUpdatedSince={tag}` | 200 `{"lastUpdated","serialNumbers"}`, 204 nothing changed |
 * | `GET {base}/v1/passes/{passType}/{serial}` | 200 `application/vnd.apple.pkpass` + `Last-Modified`, 304 for `If-Modified-Since`, 401 |
 * | `DELETE {base}/v1/devices/{device}/registrations/{passType}/{serial}` | 200, 401 |
 * | `POST {base}/v1/passes/{passType}/{serial}/personalize` `{"personalizationToken","requiredPersonalizationInfo"}` (with `onPersonalize`) | 200 the signed token (`application/octet-stream`), 400, 401 for a wrong token sent, 404 |
 * | `POST {base}/v1/log` `{"logs"}` | 200, 400, 413 |
 *
 * Checks come in this order: 414 for a path over 8192 characters; 404
 * `not-found` outside the routes; 405 with `Allow`; 400 `invalid-path` for a
 * parameter that is not valid percent-encoded UTF-8 or holds a control
 * character; 401 `missing-credentials` / `invalid-credentials` (the
 * `ApplePass` token, compared in constant time with the pass's own; an
 * unknown pass is answered the same); 413 `body-too-large`; 400
 * `invalid-json`, `invalid-push-token`, `invalid-logs`,
 * `invalid-personalization`. Errors are RFC 9457
 * `application/problem+json`; a lookup or store that throws gives a 500 that
 * shows nothing of the error.
 *
 * @throws {TypeError} when an option is missing or of the wrong type.
 *
 * @example
 * ```ts
 * const handler = createWalletHandler({
 *   store: createMemoryWalletStore(),
 *   findPass: async (passTypeIdentifier, serialNumber) => {
 *     const row = await db.pass(passTypeIdentifier, serialNumber);
 *     return row && { authenticationToken: row.pass.authenticationToken, lastModified: row.updatedAt, pkpass: () => packPass(row.pass, files, signer) };
 *   },
 *   onEvent: (event) => db.outbox.add(event),
 *   basePath: '/wallet',
 * });
 * ```
 */
export function createWalletHandler(options: WalletHandlerOptions): WalletHandler {
  const { store, findPass, onEvent, onLog, onError, onPersonalize, signer } = options;
  if (typeof store !== 'object' || store === null) throw new TypeError('createWalletHandler: `store` must be a WalletStore');
  if (typeof findPass !== 'function') throw new TypeError('createWalletHandler: `findPass` must be a function');
  for (const [name, value] of [
    ['onEvent', onEvent],
    ['onLog', onLog],
    ['onError', onError],
    ['onPersonalize', onPersonalize],
  ] as const) {
    if (value !== undefined && typeof value !== 'function') throw new TypeError(`createWalletHandler: \`${name}\` must be a function`);
  }
  if (onPersonalize !== undefined && typeof signer !== 'function' && (typeof signer !== 'object' || signer === null || typeof signer.sign !== 'function')) {
    throw new TypeError(
      'createWalletHandler: `onPersonalize` needs a `signer` (a PassSigner, or a function giving one per pass type) to sign personalization tokens',
    );
  }
  if (options.basePath !== undefined && typeof options.basePath !== 'string') {
    throw new TypeError('createWalletHandler: `basePath` must be a string');
  }
  const maxBodyBytes = options.maxBodyBytes ?? defaultMaxBodyBytes;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new TypeError('createWalletHandler: `maxBodyBytes` must be a positive integer');
  }
  const basePath = normalizeBasePath(options.basePath ?? '');

  const report = errorReporter(onError);

  // A hook's failure is reported, never answered: the device's request succeeded.
  const tell = async (hook: () => void | PromiseLike<void>, request: Request): Promise<void> => {
    try {
      await hook();
    } catch (error) {
      report(error, request);
    }
  };

  const emit = async (
    type: 'registration.created' | 'registration.deleted',
    deviceLibraryIdentifier: string,
    passTypeIdentifier: string,
    serialNumber: string,
    request: Request,
  ): Promise<void> => {
    if (onEvent === undefined) return;
    await tell(() => {
      // deviceLibraryIdentifier rides along so a receiver can tell devices apart; `wallet` tells Apple's from Google's.
      const data = { serialNumber, passTypeIdentifier, deviceLibraryIdentifier, wallet: 'apple' };
      return onEvent(createEvent(type, data), request);
    }, request);
  };

  // Rewards enrollment: the caller records the signup, the token goes back signed, pass.personalized is reported.
  const personalize = async (request: Request, passTypeIdentifier: string, serialNumber: string): Promise<Response> => {
    const body = await readJsonBody(request, maxBodyBytes);
    if (body.kind === 'too-large') return tooLarge(false);
    if (body.kind === 'invalid') return invalidJson(false);
    const signup = readPersonalizationBody(body.value);
    if (signup === undefined) {
      return problem(
        'invalid-personalization',
        400,
        'The body is {"personalizationToken": <visible ASCII without braces>, "requiredPersonalizationInfo": {<fullName, givenName, familyName, emailAddress, postalCode, ISOCountryCode, phoneNumber: strings>}}.',
        false,
      );
    }
    const personalization: WalletPersonalization = { passTypeIdentifier, serialNumber, ...signup };
    // Resolved before onPersonalize: a service that cannot sign must not record a signup Wallet will reject.
    const tokenSigner = typeof signer === 'function' ? await signer(passTypeIdentifier) : signer;
    if (tokenSigner === undefined || tokenSigner.passTypeIdentifier !== passTypeIdentifier) {
      throw new TypeError(
        `createWalletHandler: no signer for pass type ${JSON.stringify(passTypeIdentifier)} (the signer's is ${JSON.stringify(tokenSigner?.passTypeIdentifier)})`,
      );
    }
    // false: this pass takes no signup (none asked for, or done already) — nothing signed, nothing told.
    if ((await onPersonalize!(personalization, request)) === false) return problem('not-found', 404, 'There is no such pass to personalize.', false);
    const signed = await signPersonalizationToken(signup.personalizationToken, tokenSigner);
    if (onEvent !== undefined) {
      await tell(
        () => onEvent(createEvent('pass.personalized', { serialNumber, passTypeIdentifier, personalization: signup.requiredPersonalizationInfo }), request),
        request,
      );
    }
    return new Response(signed as Uint8Array<ArrayBuffer>, {
      status: 200,
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(signed.length), 'cache-control': 'no-store' },
    });
  };

  const handle = async (request: Request): Promise<Response> => {
    const method = request.method;
    const head = method === 'HEAD';
    const path = pathOf(request.url);
    if (path.length > maxPathLength) {
      return problem('uri-too-long', 414, `The path is longer than ${maxPathLength} characters.`, head);
    }
    const below = basePath === '' ? path : path.startsWith(basePath + '/') ? path.slice(basePath.length) : undefined;
    const route = below === undefined ? undefined : matchWalletRoute(below);
    if (route === undefined || (route.kind === 'personalize' && onPersonalize === undefined)) {
      return problem('not-found', 404, `Nothing is served here; Apple's web service lives under ${basePath}/v1/.`, head);
    }
    const allow = allowedMethods[route.kind];
    if (!allow.split(', ').includes(method)) {
      return problem('method-not-allowed', 405, `This call answers ${allow} only.`, head, { allow });
    }

    if (route.kind === 'log') {
      const body = await readJsonBody(request, maxBodyBytes);
      if (body.kind === 'too-large') return tooLarge(head);
      if (body.kind === 'invalid') return invalidJson(head);
      const logs = readLogs(body.value);
      if (logs === undefined) {
        return problem('invalid-logs', 400, `The body is {"logs": [<string>, …]}, at most ${maxLogs} messages.`, head);
      }
      if (onLog !== undefined) await tell(() => onLog(logs, request), request);
      return empty(200);
    }

    const decoded = decodeParameters(route);
    if (decoded === undefined) {
      return problem('invalid-path', 400, 'A path parameter is not valid percent-encoded UTF-8, is too long or holds a control character.', head);
    }
    const { deviceLibraryIdentifier = '', passTypeIdentifier, serialNumber = '' } = decoded;

    if (route.kind === 'serials') {
      const since = queryParameter(request.url, 'passesUpdatedSince');
      const updated = await store.updatedSince(deviceLibraryIdentifier, passTypeIdentifier, since === '' ? undefined : since);
      if (updated.serialNumbers.length === 0) return empty(204);
      return json({ lastUpdated: updated.lastUpdated, serialNumbers: [...updated.serialNumbers] }, head);
    }

    // The calls about one pass need its ApplePass token; Apple documents none for personalize, so there a token is checked only when sent.
    const authorization = request.headers.get('authorization');
    if (route.kind === 'personalize' && authorization === null) {
      const found = await findPass(passTypeIdentifier, serialNumber, request);
      if (found === undefined || found === null) return problem('not-found', 404, 'There is no such pass to personalize.', head);
      return personalize(request, passTypeIdentifier, serialNumber);
    }
    const presented = readApplePassToken(authorization);
    if (presented === undefined) {
      return problem('missing-credentials', 401, 'Send the pass\'s token as "Authorization: ApplePass <authenticationToken>".', head, {
        'www-authenticate': 'ApplePass',
      });
    }
    const pass = await findPass(passTypeIdentifier, serialNumber, request);
    const authentic = await sameToken(presented, typeof pass?.authenticationToken === 'string' ? pass.authenticationToken : '');
    if (pass === undefined || pass === null || !authentic) {
      return problem('invalid-credentials', 401, 'The authentication token does not belong to this pass.', head, {
        'www-authenticate': 'ApplePass',
      });
    }

    if (route.kind === 'pass') {
      const lastModified = toTime(pass.lastModified);
      // HTTP dates have whole seconds: compare in seconds, or a pass would never be "not modified".
      const lastModifiedSeconds = Math.floor(lastModified / 1000);
      const since = request.headers.get('if-modified-since');
      const sinceTime = since === null ? undefined : parseHttpDate(since.trim());
      const headers = { 'last-modified': formatHttpDate(lastModified), 'cache-control': 'no-cache' };
      if (sinceTime !== undefined && lastModifiedSeconds <= Math.floor(sinceTime / 1000)) {
        return new Response(null, { status: 304, headers });
      }
      const bytes = typeof pass.pkpass === 'function' ? await pass.pkpass() : pass.pkpass;
      if (!(bytes instanceof Uint8Array)) throw new TypeError('findPass gave a pkpass that is not a Uint8Array');
      return new Response(head ? null : (bytes as Uint8Array<ArrayBuffer>), {
        status: 200,
        headers: { ...headers, 'content-type': 'application/vnd.apple.pkpass', 'content-length': String(bytes.length) },
      });
    }

    if (route.kind === 'personalize') return personalize(request, passTypeIdentifier, serialNumber);

    if (method === 'DELETE') {
      const removed = await store.unregister(deviceLibraryIdentifier, passTypeIdentifier, serialNumber);
      if (removed) await emit('registration.deleted', deviceLibraryIdentifier, passTypeIdentifier, serialNumber, request);
      return empty(200);
    }

    const body = await readJsonBody(request, maxBodyBytes);
    if (body.kind === 'too-large') return tooLarge(head);
    if (body.kind === 'invalid') return invalidJson(head);
    const pushToken = isRecord(body.value) ? body.value['pushToken'] : undefined;
    if (!isPushToken(pushToken)) {
      return problem('invalid-push-token', 400, 'The body is {"pushToken": <16 to 256 hexadecimal digits>}.', head);
    }
    const outcome = await store.register({
      deviceLibraryIdentifier,
      passTypeIdentifier,
      serialNumber,
      pushToken: pushToken.toLowerCase(),
    });
    if (outcome === 'created') {
      await emit('registration.created', deviceLibraryIdentifier, passTypeIdentifier, serialNumber, request);
      return empty(201);
    }
    return empty(200);
  };

  return async (request) => {
    try {
      return await handle(request);
    } catch (error) {
      report(error, request);
      return internalError(request);
    }
  };
}

interface Parameters {
  readonly deviceLibraryIdentifier?: string;
  readonly passTypeIdentifier: string;
  readonly serialNumber?: string;
}

/** The route's parameters, each percent-decoded once and checked; `undefined` when one is not valid. */
function decodeParameters(route: {
  readonly deviceLibraryIdentifier?: string;
  readonly passTypeIdentifier: string;
  readonly serialNumber?: string;
}): Parameters | undefined {
  const decode = (segment: string | undefined): string | undefined | false => {
    if (segment === undefined) return undefined;
    const text = decodeSegment(segment);
    return text !== undefined && isIdentifier(text) ? text : false;
  };
  const deviceLibraryIdentifier = decode(route.deviceLibraryIdentifier);
  const passTypeIdentifier = decode(route.passTypeIdentifier);
  const serialNumber = decode(route.serialNumber);
  if (deviceLibraryIdentifier === false || passTypeIdentifier === false || passTypeIdentifier === undefined || serialNumber === false) {
    return undefined;
  }
  return {
    passTypeIdentifier,
    ...(deviceLibraryIdentifier === undefined ? {} : { deviceLibraryIdentifier }),
    ...(serialNumber === undefined ? {} : { serialNumber }),
  };
}

/** One query parameter of a URL, decoded as forms are (`+` is a space); `undefined` when absent. */
function queryParameter(url: string, name: string): string | undefined {
  const start = url.indexOf('?');
  if (start === -1) return undefined;
  const hash = url.indexOf('#', start);
  // URLSearchParams alone, not a whole URL: the serials call is the one Wallet makes most.
  return new URLSearchParams(url.slice(start + 1, hash === -1 ? url.length : hash)).get(name) ?? undefined;
}

function readLogs(value: unknown): readonly string[] | undefined {
  if (!isRecord(value)) return undefined;
  const logs = value['logs'];
  if (!Array.isArray(logs) || logs.length > maxLogs || !logs.every((entry) => typeof entry === 'string')) return undefined;
  return logs as string[];
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toTime(value: Date | number): number {
  const time = value instanceof Date ? value.getTime() : value;
  if (typeof time !== 'number' || !Number.isFinite(time)) throw new TypeError('findPass gave a lastModified that is not a date');
  return time;
}

const encoder = new TextEncoder();

function json(value: unknown, head: boolean): Response {
  const body = encoder.encode(JSON.stringify(value));
  return new Response(head ? null : body, {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length), 'cache-control': 'no-store' },
  });
}

function empty(status: 200 | 201 | 204): Response {
  return new Response(null, { status, headers: { 'cache-control': 'no-store' } });
}

/** A problem answer with one of the wallet handler's codes. */
function problem(code: WalletProblemCode, status: number, detail: string, head: boolean, headers?: Readonly<Record<string, string>>): Response {
  return problemResponse({ status, code, detail, headers }, { head });
}

function tooLarge(head: boolean): Response {
  return problem('body-too-large', 413, 'The body is larger than this service reads.', head);
}

function invalidJson(head: boolean): Response {
  return problem('invalid-json', 400, 'The body is not JSON in UTF-8.', head);
}

function internalError(request: unknown): Response {
  let head = false;
  try {
    head = (request as { method?: unknown }).method === 'HEAD';
  } catch {
    // A request whose `method` getter throws is answered as a GET.
  }
  return problem('internal-error', 500, 'The server could not answer this request.', head);
}
