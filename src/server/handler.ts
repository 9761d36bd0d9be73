import { pathOf } from '../http/route.js';
import { readApplePassToken } from '../wallet/apple-pass-auth.js';
import { createWalletHandler } from '../wallet/handler.js';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from './db/database-errors.js';
import { createSqlWalletStore } from './db/devices.js';
import type { ApiKeyScope, Caller } from './db/keys.js';
import * as store from './db/store.js';
import { ClientClosedError, clientLeft } from './http/client-closed.js';
import { type ErrorPlace, type LogSink, requestIdOf, routeTemplate } from './http/log.js';
import { ServiceProblem, problemResponse } from '../http/problem.js';
import { createRouter, type RouteSeen } from './http/router.js';
import type { Metrics } from './metrics.js';
import { createActivityBatch, walletFetchOf } from './console/activity.js';
import { consoleRoute, createConsoleHandler, isConsolePath } from './console/handler.js';
import { createConsoleSessions } from './console/sessions.js';
import { DEFAULT_CONSOLE_DIR } from './console/static.js';
import { API_ROUTES } from './routes/api.js';
import { createAuditTrail } from './routes/audit.js';
import type { ServiceContext } from './routes/context.js';
import { createIdempotency } from './routes/idempotency.js';
import { createServices, type Services } from './routes/services.js';
import { WALLET_BASE_PATH } from './routes/wallet.js';
import { personalizePass } from './wallet/personalize.js';

/**
 * The service's Fetch handler: the API under `/v1/`, the seed's two GETs,
 * Apple's web service under `/wallet/`, and `/healthz`, `/readyz`,
 * `/metrics`. Every answer to a client's mistake is an RFC 9457 problem; a
 * 500 shows nothing of the error. Each answer carries `X-Request-Id`, is
 * counted in the metrics and, with `log`, logged as one entry.
 */
export function createServiceHandler(
  context: ServiceContext & { readonly metrics: Metrics },
  log?: LogSink,
  consoleOptions: ConsoleOptions = {},
): ServiceHandler {
  // Each request in flight: the route the router matched and its id, for the error log.
  const places = new WeakMap<Request, { readonly seen: RouteSeen<Caller>; readonly requestId: string }>();
  const placeOf = (request: Request): ErrorPlace => {
    const known = places.get(request);
    return { method: request.method, route: routeTemplate(pathOf(request.url), known?.seen.route), requestId: known?.requestId };
  };
  // The seed's handler reports an error with its request: told with the route and the request id.
  // The console's sessions: a session's cookie authenticates /v1/ requests as its key (console/sessions.ts).
  const sessions = createConsoleSessions({
    db: context.db,
    keys: context.keys,
    publicUrl: context.publicUrl,
    configuredKeys: consoleOptions.configuredKeys,
    now: consoleOptions.now,
  });
  const keys = sessions.keys;
  const services = createServices({
    ...context,
    keys,
    authenticate: keys.authenticate,
    onError: (error, where) => context.onError(error, where instanceof Request ? placeOf(where) : where),
  });
  const { db, pack } = services;
  const wallet = createWalletHandler({
    // The store adds registration.created/deleted in the registration's own transaction (no onEvent).
    store: createSqlWalletStore(db, {
      events: true,
      onEvents: context.notify,
      maxRegistrationsPerPass: context.limits.maxRegistrationsPerPass,
      maxRegistrationsPerDevice: context.limits.maxRegistrationsPerDevice,
    }),
    basePath: WALLET_BASE_PATH,
    findPass: async (passTypeIdentifier, serialNumber) => {
      const record = await store.findPass(db, passTypeIdentifier, serialNumber);
      if (record === undefined || record.pass.authenticationToken === undefined) return undefined;
      return { authenticationToken: record.pass.authenticationToken, lastModified: record.updated, pkpass: () => pack(record) };
    },
    // A database outage behind a Wallet request is answered 503 below, and not logged each time.
    // A client that went away mid-body is nobody's error: not logged.
    // A problem of the service's (409 signing-not-configured, 422 cannot-pack, 400 from a signup) is its answer, not an error.
    onError: (error, request) => {
      if (error instanceof ServiceProblem) walletProblems.set(request, error);
      else if (isDatabaseUnavailable(error)) walletOutage.add(request);
      else if (!clientLeft(request) && !(error instanceof ClientClosedError)) context.onError(error, placeOf(request));
    },
    // Rewards enrollment: a signup becomes a new version of the pass (wallet/personalize.ts).
    // Each pass type's signer (uploaded certificates, else the one given at start) signs its personalization tokens.
    onPersonalize: personalizePass({ db, builder: services.builder, pushes: context.pushes, commitEvents: services.commitEvents }),
    signer: async (passTypeIdentifier: string) => {
      const signer = await context.signers.signerFor(passTypeIdentifier);
      if (signer === undefined) throw new ServiceProblem(409, 'signing-not-configured', `The service has no signing certificate for "${passTypeIdentifier}".`);
      return signer;
    },
  });
  const walletOutage = new WeakSet<Request>();
  const consoleHandler = createConsoleHandler({ sessions, dir: consoleOptions.dir ?? DEFAULT_CONSOLE_DIR, guard: services.guard });
  // Wallet's fetches of a pass (200, 304) on its timeline, written in the background like downloads.
  const activity = createActivityBatch(db, { onError: context.onError });
  const walletProblems = new WeakMap<Request, ServiceProblem>();

  // Idempotency-Key on every POST with an API key: the router runs the layer around each handler.
  const api = createRouter<ApiKeyScope, Services, Caller>(
    API_ROUTES,
    services,
    keys.check,
    createIdempotency(db, { onError: (error) => context.onError(error, { method: 'POST' }) }),
  );

  // Every change made with a key or a session: recorded before its answer goes.
  const trail = createAuditTrail({ db, routes: API_ROUTES, addressOf: services.guard.addressOf, log, onError: (error) => context.onError(error) });

  const answer = async (request: Request, seen: RouteSeen<Caller>): Promise<Response> => {
    const head = request.method === 'HEAD';
    try {
      const path = new URL(request.url).pathname;
      if (path === WALLET_BASE_PATH || path.startsWith(`${WALLET_BASE_PATH}/`)) {
        // Anyone may call Apple's web service: rates per address and per pass token before any work.
        services.guard.admit(request, readApplePassToken(request.headers.get('authorization')));
        const response = await wallet(request);
        const fetched = walletFetchOf(request, response, WALLET_BASE_PATH);
        if (fetched !== undefined) activity.add(fetched);
        if (response.status === 500 && clientLeft(request)) return problemAnswer(clientClosed(), head);
        const problem = response.status === 500 ? walletProblems.get(request) : undefined;
        if (problem !== undefined) return problemAnswer(problem, head);
        return response.status === 500 && walletOutage.has(request) ? problemAnswer(databaseUnavailable(), head) : response;
      }
      if (isConsolePath(path)) {
        seen.route = consoleRoute(path);
        return await consoleHandler(request);
      }
      const response = await api(request, seen);
      return head && response.body !== null ? new Response(null, { status: response.status, headers: response.headers }) : response;
    } catch (error) {
      if (error instanceof ServiceProblem) return problemAnswer(error, head);
      // The client went away mid-request (its body stream failed): nobody to answer, nothing to log.
      if (clientLeft(request) || error instanceof ClientClosedError) return problemAnswer(clientClosed(), head);
      if (isDatabaseUnavailable(error)) return problemAnswer(databaseUnavailable(), head);
      context.onError(error, placeOf(request));
      return problemAnswer(new ServiceProblem(500, 'internal-error', 'The service failed to answer; the error is in its log.'), head);
    }
  };

  const handler = async (request: Request): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdOf(request);
    const seen: RouteSeen<Caller> = {};
    places.set(request, { seen, requestId });
    let response = await answer(request, seen);
    const recording = trail.record(request, seen, response, requestId);
    if (recording !== undefined) await recording;
    const ms = Math.round((performance.now() - started) * 10) / 10;
    const route = routeTemplate(pathOf(request.url), seen.route);
    context.metrics.request(request.method, route, response.status, ms);
    log?.({ time: new Date().toISOString(), type: 'request', method: request.method, route, status: response.status, ms, requestId });
    try {
      response.headers.set('x-request-id', requestId);
    } catch {
      // Headers of a response made elsewhere may be immutable: copy them.
      response = new Response(response.body, { status: response.status, statusText: response.statusText, headers: new Headers(response.headers) });
      response.headers.set('x-request-id', requestId);
    }
    return response;
  };
  return Object.assign(handler, {
    routes: servedRoutes(),
    flush: async () => {
      await Promise.all([services.eventBatch.flush(), activity.flush()]);
    },
  });
}

/**
 * The service's Fetch handler, and the API routes its router serves (the
 * OpenAPI check compares them with the document; Apple's web service under
 * `/wallet/` is not among them).
 */
export interface ServiceHandler {
  (request: Request): Promise<Response>;
  readonly routes: readonly { readonly pattern: string; readonly methods: readonly string[] }[];
  /** Writes the events still waiting in memory (`pass.downloaded`); `close` calls it before the database closes. */
  flush(): Promise<void>;
}

/**
 * The console's options: the folder of its built files (default
 * `dist/console/` of the package), the clock its sessions are judged by, and
 * the keys given in code (a session may act as one).
 */
export interface ConsoleOptions {
  readonly dir?: string | undefined;
  readonly now?: (() => number) | undefined;
  readonly configuredKeys?: readonly string[] | undefined;
}

/**
 * A problem as the service answers it: without `Content-Length`, so the listener writes it chunked
 * (with a length, a pipelined request behind a refused body the handler never read went unanswered).
 */
function problemAnswer(problem: ServiceProblem, head: boolean): Response {
  return problemResponse(problem, { head, length: false });
}

/** The API's paths (as OpenAPI writes them) with the methods each serves. */
function servedRoutes(): { readonly pattern: string; readonly methods: readonly string[] }[] {
  const paths = new Map<string, string[]>();
  for (const route of API_ROUTES) {
    const methods = paths.get(route.pattern.template) ?? [];
    paths.set(route.pattern.template, [...methods, route.method]);
  }
  return [...paths].map(([pattern, methods]) => ({ pattern, methods }));
}

/** The answer while the database cannot be reached: 503, try again in a few seconds. */
function databaseUnavailable(): ServiceProblem {
  return new ServiceProblem(503, 'database-unavailable', 'The database cannot be reached right now; try again shortly.', {
    headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
  });
}

/** What is recorded (metrics, the request log) for a client that left before its answer: nginx's 499, not a 5xx. */
function clientClosed(): ServiceProblem {
  return new ServiceProblem(499, 'client-closed', 'The client closed the connection before the answer.');
}
