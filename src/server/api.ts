import { createWalletHandler } from '../wallet/handler.js';
import type { ServiceContext } from './context.js';
import { createKit } from './kit.js';
import { ServiceProblem, problemResponse } from './problem.js';
import { createRouter } from './router.js';
import { eventRoutes } from './routes-events.js';
import { passRoutes } from './routes-passes.js';
import { templateRoutes } from './routes-templates.js';
import { webhookRoutes } from './routes-webhooks.js';
import * as store from './store.js';
import { createSqlWalletStore } from './wallet-store.js';

/**
 * The service's Fetch handler: the API under `/v1/`, the seed's two GETs,
 * and Apple's web service under `/wallet/`. Every answer to a client's
 * mistake is an RFC 9457 problem; a 500 shows nothing of the error.
 */
export function createServiceHandler(context: ServiceContext): (request: Request) => Promise<Response> {
  const kit = createKit(context);
  const { db, pack } = kit;
  const wallet = createWalletHandler({
    // The store adds registration.created/deleted in the registration's own transaction (no onEvent).
    store: createSqlWalletStore(db, { events: true, onEvents: context.notify }),
    basePath: '/wallet',
    findPass: async (passTypeIdentifier, serialNumber) => {
      const record = await store.findPass(db, passTypeIdentifier, serialNumber);
      if (record === undefined || record.pass.authenticationToken === undefined) return undefined;
      return { authenticationToken: record.pass.authenticationToken, lastModified: record.updated, pkpass: () => pack(record) };
    },
    onError: context.onError,
  });

  const api = createRouter([...templateRoutes(kit), ...passRoutes(kit), ...webhookRoutes(kit), ...eventRoutes(kit)], context.authenticate);

  return async (request) => {
    const head = request.method === 'HEAD';
    try {
      const path = new URL(request.url).pathname;
      if (path === '/wallet' || path.startsWith('/wallet/')) return await wallet(request);
      const response = await api(request);
      return head && response.body !== null ? new Response(null, { status: response.status, headers: response.headers }) : response;
    } catch (error) {
      if (error instanceof ServiceProblem) return problemResponse(error, head);
      // The client went away mid-request (its body stream failed): nobody to answer, nothing to log.
      if (!request.signal.aborted) context.onError(error);
      return problemResponse(new ServiceProblem(500, 'internal-error', 'The service failed to answer; the error is in its log.'), head);
    }
  };
}
