import { matchWalletRoute, WALLET_PATHS, type WalletRoute } from '../../wallet/route.js';

/**
 * One structured log line: `passmint serve` writes each as one JSON line on
 * stdout. Never holds a secret, a token, an API key or a query string.
 *
 * @example
 * ```ts
 * const line: LogEntry = { time: '2026-01-01T00:00:00.000Z', type: 'request', method: 'GET', route: '/v1/passes', status: 200, ms: 3, requestId: '…' };
 * ```
 */
export interface LogEntry {
  readonly time: string;
  readonly type: 'request' | 'delivery' | 'push' | 'retention' | 'error' | 'secret-key' | 'audit';
  readonly [field: string]: string | number | boolean | null;
}

/**
 * Where an error happened, when a request was being answered: passed to
 * `createServer`'s `onError` as its second argument.
 *
 * @example
 * ```ts
 * const where: ErrorPlace = { method: 'GET', route: '/v1/templates/{id}', requestId: '7f3c…' };
 * ```
 */
export interface ErrorPlace {
  readonly method?: string | undefined;
  /** The route template (never the raw path). */
  readonly route?: string | undefined;
  readonly requestId?: string | undefined;
}

/** Where log entries go: `passmint serve` writes JSON lines to stdout; `createServer` writes none unless given one. */
export type LogSink = (entry: LogEntry) => void;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: its `X-Request-Id` when that is 1–128 safe characters, else a new UUID. */
export function requestIdOf(request: Request): string {
  const given = request.headers.get('x-request-id');
  return given !== null && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

/** The route template of each of Apple's calls (and Wallet's log), by kind. */
export const WALLET_ROUTES: { readonly [K in WalletRoute['kind']]: string } = {
  registration: `/wallet${WALLET_PATHS.registration.path}`,
  serials: `/wallet${WALLET_PATHS.serials.path}`,
  pass: `/wallet${WALLET_PATHS.pass.path}`,
  personalize: `/wallet${WALLET_PATHS.personalize.path}`,
  log: `/wallet${WALLET_PATHS.log.path}`,
};

/**
 * The route template a path is logged and counted under: a `/wallet/…` call
 * by Apple's route, an API route by its pattern (`/v1/passes/{type}/{serial}`),
 * `unmatched` for anything else — never the raw path, which holds serial
 * numbers and device ids.
 */
export function routeTemplate(path: string, apiRoute: string | undefined): string {
  if (path === '/wallet' || path.startsWith('/wallet/')) {
    const route = matchWalletRoute(path.slice('/wallet'.length));
    return route === undefined ? 'unmatched' : WALLET_ROUTES[route.kind];
  }
  return apiRoute === undefined ? 'unmatched' : apiRoute.replace(/:([a-z]+)/gi, '{$1}').replace(/\*$/, '{path}');
}

/** What {@link bufferLines} gives: `write` a text, `flush` what waits. */
export interface LineBuffer {
  readonly write: (text: string) => void;
  readonly flush: () => void;
}

/**
 * Lines written together: what is written during one turn of the event loop
 * goes out in one write (`setImmediate`), in order, and at once past
 * `maxChars`. `flush()` writes what waits now (at exit, at shutdown).
 * `passmint serve` writes its log through one: a write per request cost
 * more than the request's routing.
 *
 * @example
 * ```ts
 * const out = bufferLines((text) => process.stdout.write(text));
 * out.write('{"type":"request"}\n');
 * process.on('exit', out.flush);
 * ```
 */
export function bufferLines(write: (text: string) => void, maxChars: number = 64 * 1024): LineBuffer {
  let waiting: string[] = [];
  let chars = 0;
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (waiting.length === 0) return;
    const text = waiting.length === 1 ? waiting[0]! : waiting.join('');
    waiting = [];
    chars = 0;
    write(text);
  };
  return {
    write(text) {
      waiting.push(text);
      chars += text.length;
      if (chars >= maxChars) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
