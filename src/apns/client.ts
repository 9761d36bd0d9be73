import { connect, constants, type ClientHttp2Session, type SecureClientSessionOptions } from 'node:http2';
import { createSecureContext } from 'node:tls';
import { ApnsError } from './apns-error.js';
import { classifyPush, type PushResult } from './classify.js';
import { APNS_ORIGINS } from './hosts.js';
import { createProviderTokens, type ProviderTokenOptions, type ProviderTokens } from './provider-token.js';

/**
 * Certificate authentication: the Pass Type ID certificate and its key (PEM),
 * or the `.p12` Keychain exports, as the TLS client certificate.
 *
 * @example
 * ```ts
 * const certificate: ApnsCertificate = { cert: readFileSync('pass.pem'), key: readFileSync('pass.key') };
 * ```
 */
export type ApnsCertificate =
  | { readonly cert: string | Uint8Array; readonly key: string | Uint8Array; readonly passphrase?: string }
  | { readonly pfx: Uint8Array; readonly passphrase?: string };

/**
 * What `createApnsClient` needs: one way to authenticate, and where APNs is.
 *
 * @example
 * ```ts
 * const options: ApnsClientOptions = { certificate: { cert, key }, environment: 'production', concurrency: 64 };
 * ```
 */
export interface ApnsClientOptions {
  /** Certificate authentication (the Pass Type ID certificate). Give this or `token`. */
  readonly certificate?: ApnsCertificate | undefined;
  /** Token authentication (an ES256 `.p8` key). Give this or `certificate`. */
  readonly token?: ProviderTokenOptions | undefined;
  /** `production` (default, `api.push.apple.com`) or `development` (`api.sandbox.push.apple.com`). */
  readonly environment?: 'production' | 'development' | undefined;
  /** Another origin (`https://host:port`), such as a local stand-in in tests; wins over `environment`. */
  readonly origin?: string | undefined;
  /** Certificates to trust for the server besides the system's (a stand-in's own CA). */
  readonly ca?: string | Uint8Array | readonly (string | Uint8Array)[] | undefined;
  /** Most pushes in flight at once; default 100. Further pushes wait their turn. */
  readonly concurrency?: number | undefined;
  /** Give up on one push after this many milliseconds (outcome `retry`); default 10 000. */
  readonly timeoutMs?: number | undefined;
  /** The clock provider tokens are dated by; default `Date.now`. */
  readonly now?: (() => number) | undefined;
}

/**
 * Options of one push.
 *
 * @example
 * ```ts
 * await apns.push(pushToken, topic, { expiration: Math.floor(Date.now() / 1000) + 86_400 });
 * ```
 */
export interface PushOptions {
  /** `apns-expiration`: UNIX seconds until which APNs keeps trying a device that is offline; default APNs's (none: 0 not sent). */
  readonly expiration?: number;
  /** `apns-id`: a UUID naming the notification; APNs makes one when absent. */
  readonly id?: string;
}

/**
 * An APNs connection for pass-update pushes.
 *
 * @example
 * ```ts
 * const apns: ApnsClient = createApnsClient({ certificate: { cert, key } });
 * ```
 */
export interface ApnsClient {
  /** The origin pushes go to. */
  readonly origin: string;
  /** Sends the empty `{}` push for a pass type to one device; resolves to the result, never rejects for APNs's or the network's sake. */
  push(pushToken: string, topic: string, options?: PushOptions): Promise<PushResult>;
  /** Closes the connection after the pushes in flight; later pushes throw `ApnsError` `closed`. */
  close(): Promise<void>;
}

const hexToken = /^[0-9A-Fa-f]{1,512}$/;
const maxErrorBody = 4096;

/**
 * An HTTP/2 client for Wallet's pass-update pushes: `POST /3/device/<token>`
 * with `apns-topic` = the pass type identifier and the payload `{}` (Wallet
 * ignores anything else; what the user sees comes from fields'
 * `changeMessage`). No `apns-push-type` is sent: Apple documents none for
 * passes. One connection is kept and reused for every push (made again when
 * APNs closes it); at most `concurrency` pushes are in flight.
 *
 * Authentication is the Pass Type ID certificate as TLS client certificate,
 * or an ES256 provider token made once and reused for 50 minutes (Apple
 * rejects tokens older than an hour and too frequent renewals); an
 * `ExpiredProviderToken` answer renews it and sends again, once.
 *
 * Each push resolves to a {@link PushResult} classified by {@link classifyPush}.
 *
 * @throws {ApnsError} `invalid-options` / `invalid-key` for options it cannot use.
 *
 * @example
 * ```ts
 * const apns = createApnsClient({ certificate: { cert: readFileSync('pass.pem'), key: readFileSync('pass.key') } });
 * const result = await apns.push(pushToken, 'pass.com.example.member');
 * if (result.outcome === 'gone') await store.removePushToken(pushToken);
 * await apns.close();
 * ```
 */
export function createApnsClient(options: ApnsClientOptions): ApnsClient {
  const { certificate, token, environment = 'production', concurrency = 100, timeoutMs = 10_000, now = Date.now } = options;
  if ((certificate === undefined) === (token === undefined)) {
    throw new ApnsError('invalid-options', 'createApnsClient needs exactly one of `certificate` and `token`');
  }
  if (environment !== 'production' && environment !== 'development') {
    throw new ApnsError('invalid-options', "environment must be 'production' or 'development'");
  }
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new ApnsError('invalid-options', 'concurrency must be an integer ≥ 1');
  }
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs)) {
    throw new ApnsError('invalid-options', 'timeoutMs must be a positive, finite number of milliseconds');
  }
  const origin = options.origin ?? APNS_ORIGINS[environment];
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    throw new ApnsError('invalid-options', `origin is not a URL: ${origin}`);
  }
  if (parsed.protocol !== 'https:') throw new ApnsError('invalid-options', 'APNs is reached over https only');
  const tokens: ProviderTokens | undefined = token === undefined ? undefined : createProviderTokens(token, now);

  const tls: SecureClientSessionOptions = {};
  if (certificate !== undefined) {
    if ('pfx' in certificate) tls.pfx = Buffer.from(certificate.pfx);
    else {
      tls.cert = toBuffer(certificate.cert);
      tls.key = toBuffer(certificate.key);
    }
    if (certificate.passphrase !== undefined) tls.passphrase = certificate.passphrase;
    // A certificate or key that TLS cannot use would fail every push as `retry`, forever: refuse it now.
    try {
      createSecureContext(tls);
    } catch (error) {
      throw new ApnsError('invalid-key', `certificate: TLS cannot use this certificate and key (${describe(error)})`);
    }
  }
  if (options.ca !== undefined) {
    tls.ca = typeof options.ca === 'string' || options.ca instanceof Uint8Array ? toBuffer(options.ca) : options.ca.map(toBuffer);
  }

  let session: ClientHttp2Session | undefined;
  let closed = false;
  let inFlight = 0;
  const waiting: (() => void)[] = [];

  const currentSession = (): ClientHttp2Session => {
    // A push that waited for its turn while the client was closed must not open a new connection.
    if (closed) throw new ApnsError('closed', 'This APNs client is closed');
    if (session !== undefined && !session.closed && !session.destroyed) return session;
    const opened = connect(parsed.origin, tls);
    const forget = (): void => {
      if (session === opened) session = undefined;
    };
    // An error or GOAWAY ends this connection; the next push opens another.
    opened.on('error', forget);
    opened.on('goaway', forget);
    opened.on('close', forget);
    session = opened;
    return opened;
  };

  // Keep the process alive only while pushes are in flight.
  const settle = (): void => {
    inFlight--;
    const next = waiting.shift();
    if (next !== undefined) next();
    else if (inFlight === 0 && session !== undefined && !session.destroyed) session.unref();
  };

  const acquire = async (): Promise<void> => {
    if (inFlight >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    inFlight++;
  };

  // `lost`: the connection died before any answer (APNs closed it, a reset) — safe to send again:
  // a repeated `{}` push only makes a device poll once more.
  const send = (path: string, topic: string, pushOptions: PushOptions, renew: boolean): Promise<PushResult & { lost?: true }> =>
    new Promise((resolve) => {
      const headers: Record<string, string> = {
        ':method': 'POST',
        ':path': path,
        'apns-topic': topic,
        'content-type': 'application/json',
        'content-length': '2',
      };
      if (tokens !== undefined) headers['authorization'] = `bearer ${tokens.current(renew)}`;
      if (pushOptions.expiration !== undefined) headers['apns-expiration'] = String(Math.floor(pushOptions.expiration));
      if (pushOptions.id !== undefined) headers['apns-id'] = pushOptions.id;
      let active: ClientHttp2Session;
      try {
        active = currentSession();
        active.ref();
      } catch (error) {
        resolve({ outcome: 'retry', error: describe(error) });
        return;
      }
      const stream = active.request(headers);
      let status: number | undefined;
      let apnsId: string | undefined;
      let retryAfter: string | undefined;
      let body = '';
      let failure: string | undefined;
      stream.setEncoding('utf8');
      stream.setTimeout(timeoutMs, () => {
        failure = `No answer within ${timeoutMs} ms`;
        stream.close(constants.NGHTTP2_CANCEL);
      });
      stream.on('response', (response) => {
        status = Number(response[':status']);
        const id = response['apns-id'];
        if (typeof id === 'string') apnsId = id;
        const after = response['retry-after'];
        if (typeof after === 'string') retryAfter = after;
      });
      stream.on('data', (chunk: string) => {
        if (body.length < maxErrorBody) body += chunk;
      });
      stream.on('error', (error) => {
        failure ??= describe(error);
      });
      stream.on('close', () => {
        if (status === undefined || failure !== undefined) {
          const error = failure ?? `The stream closed without an answer (code ${stream.rstCode})`;
          const lost = status === undefined && !error.startsWith('No answer within') && (active.closed || active.destroyed);
          resolve(lost ? { outcome: 'retry', error, lost } : { outcome: 'retry', error });
          return;
        }
        const reason = readReason(body);
        const retryAfterMs = retryAfter === undefined ? undefined : parseRetryAfter(retryAfter, now());
        resolve({
          outcome: classifyPush(status, reason),
          status,
          ...(reason === undefined ? {} : { reason }),
          ...(apnsId === undefined ? {} : { apnsId }),
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        });
      });
      stream.end('{}');
    });

  return {
    origin: parsed.origin,
    async push(pushToken, topic, pushOptions = {}) {
      if (closed) throw new ApnsError('closed', 'This APNs client is closed');
      if (typeof topic !== 'string' || topic === '' || /[\r\n\0]/.test(topic)) {
        throw new ApnsError('invalid-options', 'topic must be the pass type identifier');
      }
      // A token that is not hex would change the path: it is what APNs calls a bad device token, without asking it.
      if (typeof pushToken !== 'string' || !hexToken.test(pushToken)) return { outcome: 'gone', reason: 'BadDeviceToken' };
      await acquire();
      try {
        const path = `/3/device/${pushToken.toLowerCase()}`;
        let result = await send(path, topic, pushOptions, false);
        if (result.lost === true) result = await send(path, topic, pushOptions, false);
        if (tokens !== undefined && result.status === 403 && result.reason === 'ExpiredProviderToken') {
          result = await send(path, topic, pushOptions, true);
        }
        const { lost: _lost, ...answer } = result;
        return answer;
      } finally {
        settle();
      }
    },
    async close() {
      closed = true;
      const open = session;
      session = undefined;
      if (open === undefined || open.destroyed) return;
      await new Promise<void>((resolve) => open.close(() => resolve()));
    },
  };
}

function readReason(body: string): string | undefined {
  if (body === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    const reason = typeof parsed === 'object' && parsed !== null ? (parsed as { reason?: unknown }).reason : undefined;
    return typeof reason === 'string' ? reason : undefined;
  } catch {
    return undefined;
  }
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds from now; `undefined` when unreadable. */
function parseRetryAfter(value: string, now: number): number | undefined {
  const text = value.trim();
  if (/^\d{1,9}$/.test(text)) return Number(text) * 1000;
  const time = Date.parse(text);
  return Number.isNaN(time) ? undefined : Math.max(0, time - now);
}

function toBuffer(value: string | Uint8Array): Buffer {
  return typeof value === 'string' ? Buffer.from(value) : Buffer.from(value);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
