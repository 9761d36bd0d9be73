// /console: the console's page and files, and its sign-in (POST, GET, DELETE /console/session).
import { ServiceProblem, problemResponse } from '../../http/problem.js';
import { isObject, readJson } from '../http/body.js';
import type { PublicGuard } from '../http/public-guard.js';
import type { ConsoleSessions, LiveSession } from './sessions.js';
import { createConsoleFiles } from './static.js';

/** The headers of every answer under /console: a strict CSP (no inline script), no framing, no sniffing. */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

/** Whether a path is the console's: `/console` and everything below it. */
export function isConsolePath(path: string): boolean {
  return path === '/console' || path.startsWith('/console/');
}

/** The route a console path counts under in the metrics and the log (never the path itself: pages are many). */
export function consoleRoute(path: string): string {
  if (path === '/console/session') return path;
  return path.startsWith('/console/assets/') ? '/console/assets/{path}' : '/console/{page}';
}

/** Options of {@link createConsoleHandler}. */
export interface ConsoleHandlerOptions {
  readonly sessions: ConsoleSessions;
  /** The folder of the built console (`dist/console/`). */
  readonly dir: string;
  /** The rates per address: a sign-in is one request of the address's. */
  readonly guard: PublicGuard;
}

const SIGN_IN_MAX_BYTES = 4096;

/**
 * The handler of `/console…`: `/console/session` (sign in, read, sign out);
 * `/console/assets/…` and the folder's other files; and every other path
 * without a dot the console's `index.html` (the console routes in the
 * browser). Every answer carries {@link CONSOLE_HEADERS}; a problem is
 * answered here, as a problem.
 *
 * @example
 * ```ts
 * const console = createConsoleHandler({ sessions, dir: DEFAULT_CONSOLE_DIR, guard });
 * if (isConsolePath(new URL(request.url).pathname)) return console(request);
 * ```
 */
export function createConsoleHandler(options: ConsoleHandlerOptions): (request: Request) => Promise<Response> {
  const { sessions, guard } = options;
  const files = createConsoleFiles(options.dir);

  const session = async (request: Request): Promise<Response> => {
    if (request.method === 'POST') {
      // Anyone may try a key: one request of the address's rate, before any work.
      guard.admit(request);
      const body = await readJson(request, SIGN_IN_MAX_BYTES);
      const key = isObject(body) ? body['key'] : undefined;
      // A key is visible ASCII (it travels in an Authorization header): anything else is no key, and no header can carry it.
      if (typeof key !== 'string' || key.length > 512 || !/^[\x21-\x7e]+$/.test(key)) {
        throw new ServiceProblem(400, 'invalid-body', 'Send `{ "key": "pm_…" }`: the API key to sign in with.');
      }
      // A sign-in from another origin's page is refused as a change would be (a forced sign-in as someone else's key).
      if (!sessions.fromOwnOrigin(request)) {
        throw new ServiceProblem(403, 'csrf-token-invalid', 'A sign-in from another origin is refused.');
      }
      const made = await sessions.signIn(request, key);
      if (made === undefined) {
        throw new ServiceProblem(401, 'invalid-credentials', 'The API key is not valid.', { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } });
      }
      return sessionAnswer(made.session, 201, { 'set-cookie': made.cookie });
    }
    const live = await sessions.of(request);
    if (request.method === 'GET' || request.method === 'HEAD') {
      if (live === undefined) throw new ServiceProblem(401, 'missing-credentials', 'No console session: sign in with an API key.');
      // The answer holds the CSRF token: never to another origin's page (a same-site one gets the cookie).
      if (!sessions.fromOwnOrigin(request)) throw new ServiceProblem(403, 'csrf-token-invalid', "Another origin may not read the console's session.");
      return sessionAnswer(live, 200, {});
    }
    if (request.method === 'DELETE') {
      if (live === undefined) {
        return new Response(null, { status: 204, headers: { 'set-cookie': sessions.clearCookie(request), 'cache-control': 'no-store' } });
      }
      sessions.checkChange(request, live);
      await sessions.signOut(live);
      return new Response(null, { status: 204, headers: { 'set-cookie': sessions.clearCookie(request), 'cache-control': 'no-store' } });
    }
    throw new ServiceProblem(405, 'method-not-allowed', 'Allowed here: GET, HEAD, POST, DELETE.', { headers: { allow: 'GET, HEAD, POST, DELETE' } });
  };

  const page = async (request: Request, path: string): Promise<Response> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new ServiceProblem(405, 'method-not-allowed', 'Allowed here: GET, HEAD.', { headers: { allow: 'GET, HEAD' } });
    }
    const built = await files.load();
    if (built === undefined) {
      throw new ServiceProblem(404, 'console-not-built', 'The console was not built: run `npm run build` in the package (it writes dist/console/).');
    }
    const rest = path === '/console' ? '' : path.slice('/console/'.length);
    const last = rest.slice(rest.lastIndexOf('/') + 1);
    const name = last.includes('.') ? rest : 'index.html';
    const file = built.get(name);
    if (file === undefined) throw new ServiceProblem(404, 'file-not-found', 'No such file of the console.');
    const headers = {
      'content-type': file.type,
      'content-length': String(file.bytes.byteLength),
      'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    };
    return new Response(request.method === 'HEAD' ? null : (file.bytes as Uint8Array<ArrayBuffer>), { status: 200, headers });
  };

  return async (request) => {
    const path = new URL(request.url).pathname;
    let response: Response;
    try {
      response = path === '/console/session' ? await session(request) : await page(request, path);
    } catch (error) {
      if (!(error instanceof ServiceProblem)) throw error;
      response = problemResponse(error, { head: request.method === 'HEAD', length: false });
    }
    for (const [name, value] of Object.entries(CONSOLE_HEADERS)) response.headers.set(name, value);
    return response;
  };
}

/** A session as the console reads it: its CSRF token and the key it acts as (never the key itself). */
function sessionAnswer(session: LiveSession, status: number, headers: Record<string, string>): Response {
  const { id, name, scopes, templateIds } = session.caller;
  // Template ids as numbers, as GET /v1/keys shows them.
  const key = { id, name, scopes, templateIds: templateIds === null ? null : templateIds.map(Number) };
  return new Response(JSON.stringify({ csrfToken: session.csrfToken, key }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}
