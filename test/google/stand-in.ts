// A local HTTP server standing in for Google Wallet (which cannot run here),
// written from Google's documented protocol:
// - the OAuth 2.0 token endpoint for service accounts: a form POST with
//   grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer and an RS256 JWT
//   assertion, checked against the service account's public key (iss, scope,
//   aud, iat/exp); it answers { access_token, expires_in, token_type };
// - the walletobjects v1 resources (genericClass, genericObject, …): insert
//   (POST, 409 when the id exists), get, update (PUT), patch (PATCH),
//   addMessage, each requiring `Authorization: Bearer <token>` (401 otherwise),
//   404 for an unknown id, and errors as { error: { code, message, status } };
// - on demand: 429/5xx with Retry-After, a held answer, an oversized answer.
// It also signs callbacks as Google does (see createCallbackSigner below).
import { createPublicKey, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const WALLET_SCOPE = 'https://www.googleapis.com/auth/wallet_object.issuer';

/** One request the stand-in received. */
export interface StandInRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: string;
}

/** An answer forced on the next API requests. */
export interface ForcedAnswer {
  readonly status: number;
  readonly retryAfter?: string;
  /** Hold the answer this long (for timeouts). */
  readonly holdMs?: number;
  /** Answer 200 with this many bytes (for size bounds). */
  readonly bodyBytes?: number;
}

export interface GoogleStandIn {
  /** Base of the REST API (`…/walletobjects/v1/`). */
  readonly apiUrl: string;
  readonly tokenUrl: string;
  readonly requests: StandInRequest[];
  /** Tokens issued so far. */
  readonly tokensIssued: () => number;
  /** Stored classes and objects by resource name, then id. */
  readonly store: Map<string, Map<string, Record<string, unknown>>>;
  /** Answer the next `count` API requests with `answer` instead. */
  force(answer: ForcedAnswer, count?: number): void;
  /** Why the last refused token request was refused. */
  readonly lastTokenError: () => string | undefined;
  close(): Promise<void>;
}

export interface GoogleStandInOptions {
  /** The service account's public key (PEM) and email the token endpoint trusts. */
  readonly publicKeyPem: string;
  readonly clientEmail: string;
  /** `expires_in` of issued tokens, seconds (default 3600). */
  readonly tokenLifetime?: number;
  /** The stand-in's clock in ms (default Date.now). */
  readonly now?: () => number;
}

const RESOURCE = /^(generic|eventTicket|loyalty|offer|flight|transit|giftCard)(Class|Object)$/;

export async function startGoogleStandIn(options: GoogleStandInOptions): Promise<GoogleStandIn> {
  const now = options.now ?? Date.now;
  const publicKey = createPublicKey(options.publicKeyPem);
  const requests: StandInRequest[] = [];
  const tokens = new Map<string, number>();
  const store = new Map<string, Map<string, Record<string, unknown>>>();
  const forced: ForcedAnswer[] = [];
  let issued = 0;
  let lastTokenError: string | undefined;
  let origin = '';

  const json = (response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void => {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    response.end(JSON.stringify(value));
  };
  const googleError = (response: ServerResponse, status: number, statusText: string, message: string, headers: Record<string, string> = {}): void =>
    json(response, status, { error: { code: status, message, status: statusText } }, headers);

  const tokenRequest = (body: string, response: ServerResponse): void => {
    const refuse = (why: string): void => {
      lastTokenError = why;
      json(response, 400, { error: 'invalid_grant', error_description: why });
    };
    const form = new URLSearchParams(body);
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return refuse('Invalid grant_type');
    const parts = (form.get('assertion') ?? '').split('.');
    if (parts.length !== 3) return refuse('Invalid JWT');
    const [header64, claims64, signature64] = parts as [string, string, string];
    let header: Record<string, unknown>;
    let claims: Record<string, unknown>;
    try {
      header = JSON.parse(Buffer.from(header64, 'base64url').toString('utf8')) as Record<string, unknown>;
      claims = JSON.parse(Buffer.from(claims64, 'base64url').toString('utf8')) as Record<string, unknown>;
    } catch {
      return refuse('Invalid JWT');
    }
    if (header['alg'] !== 'RS256') return refuse('Invalid JWT: alg');
    if (!verify('RSA-SHA256', Buffer.from(`${header64}.${claims64}`), publicKey, Buffer.from(signature64, 'base64url')))
      return refuse('Invalid JWT Signature.');
    if (claims['iss'] !== options.clientEmail) return refuse('Invalid issuer');
    if (claims['aud'] !== `${origin}/token`) return refuse('Invalid audience');
    if (typeof claims['scope'] !== 'string' || !claims['scope'].split(' ').includes(WALLET_SCOPE)) return refuse('Invalid scope');
    const seconds = now() / 1000;
    const iat = claims['iat'];
    const exp = claims['exp'];
    if (typeof iat !== 'number' || typeof exp !== 'number') return refuse('Invalid JWT: iat/exp');
    if (iat > seconds + 60 || exp <= seconds || exp - iat > 3600)
      return refuse('Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.');
    const token = `ya29.${randomBytes(24).toString('base64url')}`;
    const lifetime = options.tokenLifetime ?? 3600;
    tokens.set(token, now() + lifetime * 1000);
    issued++;
    json(response, 200, { access_token: token, expires_in: lifetime, token_type: 'Bearer' });
  };

  const apiRequest = async (request: IncomingMessage, path: string, body: string, response: ServerResponse): Promise<void> => {
    const answer = forced.shift();
    if (answer !== undefined) {
      if (answer.holdMs !== undefined) await new Promise((resolve) => setTimeout(resolve, answer.holdMs));
      if (answer.bodyBytes !== undefined) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(`{"pad":"${'x'.repeat(answer.bodyBytes)}"}`);
        return;
      }
      if (answer.status !== 200)
        return googleError(
          response,
          answer.status,
          answer.status === 429 ? 'RESOURCE_EXHAUSTED' : 'UNAVAILABLE',
          'Forced by the test',
          answer.retryAfter === undefined ? {} : { 'retry-after': answer.retryAfter },
        );
    }
    const authorization = request.headers.authorization;
    const bearer = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    const expires = bearer === undefined ? undefined : tokens.get(bearer);
    if (expires === undefined || expires <= now()) return googleError(response, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    const [resource, rawId, action, ...rest] = path.split('/');
    if (resource === undefined || !RESOURCE.test(resource) || rest.length > 0) return googleError(response, 404, 'NOT_FOUND', 'Unknown resource');
    const table = store.get(resource) ?? new Map<string, Record<string, unknown>>();
    store.set(resource, table);
    let value: Record<string, unknown> | undefined;
    if (body !== '') {
      try {
        value = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return googleError(response, 400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
      }
    }
    const method = request.method ?? 'GET';
    if (rawId === undefined) {
      if (method !== 'POST') return googleError(response, 405, 'METHOD_NOT_ALLOWED', 'Use POST to insert');
      const id = value?.['id'];
      if (typeof id !== 'string') return googleError(response, 400, 'INVALID_ARGUMENT', 'Resource id is required.');
      if (table.has(id)) return googleError(response, 409, 'ALREADY_EXISTS', `Resource with id ${id} already exists.`);
      table.set(id, value as Record<string, unknown>);
      return json(response, 200, value);
    }
    const id = decodeURIComponent(rawId);
    const current = table.get(id);
    if (current === undefined) return googleError(response, 404, 'NOT_FOUND', `Resource with id ${id} not found.`);
    if (action === 'addMessage' && method === 'POST') {
      const message = value?.['message'];
      if (message === null || typeof message !== 'object') return googleError(response, 400, 'INVALID_ARGUMENT', 'message is required.');
      const updated = { ...current, messages: [...((current['messages'] as unknown[]) ?? []), message] };
      table.set(id, updated);
      return json(response, 200, { resource: updated });
    }
    if (action !== undefined) return googleError(response, 404, 'NOT_FOUND', 'Unknown method');
    if (method === 'GET') return json(response, 200, current);
    if (method === 'PUT') {
      table.set(id, { ...(value ?? {}), id });
      return json(response, 200, table.get(id));
    }
    if (method === 'PATCH') {
      table.set(id, { ...current, ...(value ?? {}), id });
      return json(response, 200, table.get(id));
    }
    return googleError(response, 405, 'METHOD_NOT_ALLOWED', 'Method not allowed');
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(request.url ?? '/', origin);
      requests.push({ method: request.method ?? '', path: url.pathname, authorization: request.headers.authorization, body });
      if (url.pathname === '/token' && request.method === 'POST') return tokenRequest(body, response);
      const prefix = '/walletobjects/v1/';
      if (url.pathname.startsWith(prefix)) {
        apiRequest(request, url.pathname.slice(prefix.length), body, response).catch(() => googleError(response, 500, 'INTERNAL', 'Stand-in error'));
        return;
      }
      googleError(response, 404, 'NOT_FOUND', 'Not found');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    apiUrl: `${origin}/walletobjects/v1/`,
    tokenUrl: `${origin}/token`,
    requests,
    tokensIssued: () => issued,
    store,
    force(answer, count = 1) {
      for (let index = 0; index < count; index++) forced.push(answer);
    },
    lastTokenError: () => lastTokenError,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A P-256 key pair, and its public key as Google publishes keys (base64 DER SubjectPublicKeyInfo). */
export interface EcKey {
  readonly privateKey: KeyObject;
  readonly keyValue: string;
}

export function ecKey(): EcKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return { privateKey, keyValue: publicKey.export({ type: 'spki', format: 'der' }).toString('base64') };
}

/** Google's signed bytes, written independently of the library: each text preceded by its UTF-8 length, 4 bytes little-endian. */
function signedBytes(...texts: string[]): Buffer {
  return Buffer.concat(
    texts.flatMap((text) => {
      const bytes = Buffer.from(text, 'utf8');
      const length = Buffer.alloc(4);
      length.writeUInt32LE(bytes.length);
      return [length, bytes];
    }),
  );
}

/** Gson, which Google's servers use, writes `=` as `\u003d` inside JSON strings. */
function gsonJson(value: unknown): string {
  return JSON.stringify(value).replaceAll('=', '\\u003d');
}

export interface SignCallbackOptions {
  readonly issuerId: string;
  readonly message: Record<string, unknown>;
  /** When the intermediate key expires (ms since 1970). */
  readonly intermediateExpiration: number;
  /** The root key that signs the intermediate key (default: the signer's root). */
  readonly root?: EcKey;
  readonly protocolVersion?: string;
}

/**
 * Signs callbacks exactly as Google does for ECv2SigningOnly: a root key signs
 * the intermediate key's JSON text (`signedKey`), the intermediate key signs
 * the message's JSON text (`signedMessage`) for the issuer id; signatures are
 * ECDSA P-256 SHA-256 in DER, base64; the body is written by Gson.
 */
export function createCallbackSigner(root: EcKey = ecKey()) {
  return {
    root,
    /** The root keys document entries, as `https://pay.google.com/gp/m/issuer/keys` lists them. */
    rootKeys(keyExpiration: number = Date.now() + 365 * 86_400_000, protocolVersion = 'ECv2SigningOnly') {
      return [{ keyValue: root.keyValue, protocolVersion, keyExpiration: String(keyExpiration) }];
    },
    /** The callback body text. */
    sign(options: SignCallbackOptions): string {
      const intermediate = ecKey();
      const signer = options.root ?? root;
      const signedKey = JSON.stringify({ keyValue: intermediate.keyValue, keyExpiration: String(options.intermediateExpiration) });
      const keySignature = sign('sha256', signedBytes('GooglePayPasses', 'ECv2SigningOnly', signedKey), signer.privateKey).toString('base64');
      const signedMessage = JSON.stringify(options.message);
      const signature = sign('sha256', signedBytes('GooglePayPasses', options.issuerId, 'ECv2SigningOnly', signedMessage), intermediate.privateKey).toString(
        'base64',
      );
      return gsonJson({
        signature,
        intermediateSigningKey: { signedKey, signatures: [keySignature] },
        protocolVersion: options.protocolVersion ?? 'ECv2SigningOnly',
        signedMessage,
      });
    },
  };
}
