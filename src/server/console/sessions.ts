// Console sessions: the browser signs in with an API key once and holds a cookie instead. The cookie
// authenticates /v1/ requests as that key; a request that changes something must also carry the
// session's CSRF token, and comes from the service's own origin.
import { createHash, randomBytes } from 'node:crypto';
import { ServiceProblem } from '../../http/problem.js';
import { type ApiKeyChecker, type ApiKeyScope, type Caller, grants, type KeyCheck } from '../db/keys.js';
import { deleteIdleSessions, deleteSession, findSession, insertSession, touchSession, trimSessionsOfKey } from '../db/sessions.js';
import type { SqlDatabase } from '../db/sql.js';
import { originOf } from '../http/origin.js';
import { sameSecret } from '../http/same-secret.js';

/** The session cookie's name. */
const SESSION_COOKIE = 'passmint_session';
/** The header that carries the session's CSRF token on a request that changes something. */
const CSRF_HEADER = 'x-csrf-token';
/** A session ends after this long without a request. */
const SESSION_IDLE_MS: number = 12 * 60 * 60 * 1000;
// Sessions one key may hold; signing in past it ends the one used longest ago.
const SESSIONS_PER_KEY = 50;
// The last use is written at most this often per session: a request costs one read otherwise.
const TOUCH_EVERY_MS = 60 * 1000;

/** A live session: who it acts as, its CSRF token, and its token's SHA-256. */
export interface LiveSession {
  readonly tokenHash: string;
  readonly csrfToken: string;
  readonly caller: Omit<Caller, 'via'>;
}

/** What a request's cookie gives: no cookie, a cookie of no live session, or a live session. */
type CookieState = { readonly kind: 'none' } | { readonly kind: 'dead' } | { readonly kind: 'live'; readonly session: LiveSession };

/**
 * The console's sessions on one service.
 *
 * @example
 * ```ts
 * const sessions = createConsoleSessions({ db, keys, publicUrl: undefined });
 * const session = await sessions.of(request);
 * ```
 */
export interface ConsoleSessions {
  /** Signs in with an API key: the session and its cookie, or `undefined` for a key that is not valid. */
  signIn(request: Request, key: string): Promise<{ readonly session: LiveSession; readonly cookie: string } | undefined>;
  /** The live session of a request's cookie, or `undefined` (none, idle too long, its key revoked). */
  of(request: Request): Promise<LiveSession | undefined>;
  /** Ends a session. */
  signOut(session: LiveSession): Promise<void>;
  /** The `Set-Cookie` that clears the cookie. */
  clearCookie(request: Request): string;
  /**
   * Refuses (403 `csrf-token-invalid`) a request that changes something
   * without the session's token in `X-CSRF-Token`, or from another origin.
   */
  checkChange(request: Request, session: LiveSession): void;
  /** Whether a request has no `Origin`, or the service's own (scheme, host and port). */
  fromOwnOrigin(request: Request): boolean;
  /** The key check, with a session's cookie accepted for `/v1/` requests that carry no `Authorization`. */
  readonly keys: ApiKeyChecker;
}

/** Options of {@link createConsoleSessions}. */
export interface ConsoleSessionOptions {
  readonly db: SqlDatabase;
  /** The service's key check (by `Authorization: Bearer`). */
  readonly keys: ApiKeyChecker;
  /** Where the service is reached, when configured: its origin is the one allowed, and https there makes the cookie `Secure`. */
  readonly publicUrl: string | undefined;
  /** Keys given in code (not in the database): a session may act as one. */
  readonly configuredKeys?: readonly string[] | undefined;
  /** The time in milliseconds (default `Date.now`): tests move it. */
  readonly now?: (() => number) | undefined;
}

// The key's SHA-256 as the keys' table stores it (db/keys.ts hashes keys the same way).
const hashOf = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const SAFE_METHODS = new Set(['GET', 'HEAD']);
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Makes the console's sessions. The cookie holds 256 random bits; the
 * database holds only their SHA-256, with the key's SHA-256 it acts as. Each
 * request reads its session and key in one statement (by primary keys), so
 * a revoked key's sessions stop at once, in every process.
 *
 * @example
 * ```ts
 * const sessions = createConsoleSessions({ db, keys: createApiKeyChecker(db), publicUrl: 'https://passes.example.com' });
 * ```
 */
export function createConsoleSessions(options: ConsoleSessionOptions): ConsoleSessions {
  const { db, keys, publicUrl } = options;
  const now = options.now ?? Date.now;
  const configured = new Map((options.configuredKeys ?? []).map((key, index) => [hashOf(key), index + 1]));
  const states = new WeakMap<Request, Promise<CookieState>>();

  const secure = (request: Request): boolean => new URL(request.url).protocol === 'https:' || (publicUrl ?? '').toLowerCase().startsWith('https:');
  const cookieOf = (request: Request, value: string, clear: boolean): string =>
    `${SESSION_COOKIE}=${value}; HttpOnly; SameSite=Strict; Path=/${secure(request) ? '; Secure' : ''}${clear ? '; Max-Age=0' : ''}`;

  const read = async (request: Request): Promise<CookieState> => {
    const token = cookieValue(request.headers.get('cookie'), SESSION_COOKIE);
    if (token === undefined) return { kind: 'none' };
    if (!TOKEN.test(token)) return { kind: 'dead' };
    const tokenHash = hashOf(token);
    const record = await findSession(db, tokenHash);
    if (record === undefined) return { kind: 'dead' };
    const at = now();
    const configuredIndex = configured.get(record.keyHash);
    const caller: Omit<Caller, 'via'> | undefined =
      record.key !== undefined && !record.key.revoked
        ? { id: record.key.id, name: record.key.name, scopes: record.key.scopes, templateIds: record.key.templateIds }
        : record.key === undefined && configuredIndex !== undefined
          ? { id: `configured-${configuredIndex}`, name: 'configured key', scopes: ['admin'], templateIds: null }
          : undefined;
    if (caller === undefined || at - record.lastSeen.getTime() > SESSION_IDLE_MS) {
      await deleteSession(db, tokenHash);
      return { kind: 'dead' };
    }
    if (at - record.lastSeen.getTime() >= TOUCH_EVERY_MS) await touch(tokenHash, at);
    return { kind: 'live', session: { tokenHash, csrfToken: record.csrfToken, caller } };
  };
  const touch = (tokenHash: string, at: number): Promise<void> => touchSession(db, tokenHash, new Date(at));

  const stateOf = (request: Request): Promise<CookieState> => {
    let state = states.get(request);
    if (state === undefined) states.set(request, (state = read(request)));
    return state;
  };

  const fromOwnOrigin = (request: Request): boolean => {
    const origin = request.headers.get('origin');
    return origin === null || origin === originOf(publicUrl, request);
  };

  const checkChange = (request: Request, session: LiveSession): void => {
    if (SAFE_METHODS.has(request.method)) return;
    if (!fromOwnOrigin(request)) {
      throw new ServiceProblem(403, 'csrf-token-invalid', 'A request from another origin may not use the console session.');
    }
    const presented = request.headers.get(CSRF_HEADER);
    if (presented === null || !sameSecret(presented, session.csrfToken)) {
      throw new ServiceProblem(403, 'csrf-token-invalid', 'Send the session\'s CSRF token in "X-CSRF-Token" with every request that changes something.');
    }
  };

  const check = async (request: Request, scope: ApiKeyScope): Promise<KeyCheck> => {
    // A key in Authorization always wins; the cookie stands for a key only under /v1/.
    if (request.headers.has('authorization') || !new URL(request.url).pathname.startsWith('/v1/')) return keys.check(request, scope);
    const state = await stateOf(request);
    if (state.kind === 'none') return keys.check(request, scope);
    if (state.kind === 'dead') return { ok: false, reason: 'invalid' };
    // Before the scope: a cross-site request learns nothing, not even whether the scope would do.
    checkChange(request, state.session);
    if (!grants(state.session.caller.scopes, scope)) return { ok: false, reason: 'forbidden' };
    return { ok: true, ...state.session.caller, via: 'session' };
  };

  return {
    async signIn(request, key) {
      const keyCheck = await keys.check(new Request(request.url, { headers: { authorization: `Bearer ${key}` } }), 'read');
      if (!keyCheck.ok) return undefined;
      const token = randomBytes(32).toString('base64url');
      const csrfToken = randomBytes(32).toString('base64url');
      const at = now();
      // Sessions idle too long go as new ones come (a few at a time, from the index on the last use).
      await deleteIdleSessions(db, new Date(at - SESSION_IDLE_MS), 100);
      await insertSession(db, { tokenHash: hashOf(token), keyHash: hashOf(key), csrfToken, now: new Date(at) });
      // A key signed in over and over holds its latest sessions only.
      await trimSessionsOfKey(db, hashOf(key), SESSIONS_PER_KEY);
      const { ok: _, via: __, ...caller } = keyCheck;
      return { session: { tokenHash: hashOf(token), csrfToken, caller }, cookie: cookieOf(request, token, false) };
    },
    async of(request) {
      const state = await stateOf(request);
      return state.kind === 'live' ? state.session : undefined;
    },
    async signOut(session) {
      await deleteSession(db, session.tokenHash);
    },
    clearCookie: (request) => cookieOf(request, '', true),
    checkChange,
    fromOwnOrigin,
    keys: { ...keys, check, authenticate: async (request) => (await check(request, 'read')).ok },
  };
}

/** A cookie's value from a `Cookie` header (the first of that name), or `undefined`. */
function cookieValue(header: string | null, name: string): string | undefined {
  if (header === null) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}
