import { createPassHandler, type PassHandler } from '../../http/handler.js';
import { createPassBuilder, type PassBuilder } from '../build/pass-builder.js';
import { createEventBatch, type EventBatch } from '../db/event-batch.js';
import { createPassBatch, type PassBatch } from '../db/pass-batch.js';
import type { PassRecord } from '../db/passes.js';
import type { SqlDatabase, SqlQueryable } from '../db/sql.js';
import * as store from '../db/store.js';
import { createPublicGuard, type PublicGuard } from '../http/public-guard.js';
import type { ServiceContext } from './context.js';
import { createPacker } from './packer.js';
import { createTemplateCache, type TemplateCache } from './template-cache.js';

/**
 * What a route's handler is given besides its call: the service's context,
 * and the parts made once from it for every route — the pass builder, the
 * caches, the batches, the rates of the public routes.
 */
export interface Services {
  readonly context: ServiceContext;
  readonly db: SqlDatabase;
  readonly builder: PassBuilder;
  /** Rates and the repeat window of the routes anyone may call. */
  readonly guard: PublicGuard;
  /** The seed's two GETs (`createPassHandler` on the SQL store). */
  readonly seed: PassHandler;
  /** Events that record no change (`pass.downloaded`), written in the background, many in one statement. */
  readonly eventBatch: EventBatch;
  /** New passes with their `pass.created`, many creates in one statement (group commit). */
  readonly passBatch: PassBatch;
  readonly templates: TemplateCache;
  /** The pass's signed `.pkpass`; 409 without a signer, 422 when it cannot be packed. */
  pack(record: PassRecord): Promise<Uint8Array>;
  /** Runs a transaction that queues events or pushes, then wakes this process's workers. */
  commitEvents(work: (tx: SqlQueryable) => Promise<void>): Promise<void>;
}

/**
 * The services of one `createServer`.
 *
 * @example
 * ```ts
 * const services = createServices(context);
 * const bytes = await services.pack(record);
 * ```
 */
export function createServices(context: ServiceContext): Services {
  const { db } = context;
  const builder = createPassBuilder({
    db,
    issuer: context.issuer,
    teamFor: context.signers.teamFor,
    publicUrl: context.publicUrl,
    preparedFilesCacheBytes: context.limits.preparedFilesCacheBytes,
  });
  const templates = createTemplateCache(db);
  return {
    context,
    db,
    builder,
    guard: createPublicGuard(context.limits),
    seed: createPassHandler({
      authenticate: context.authenticate,
      findPass: async (passTypeIdentifier, serialNumber) => (await store.findPass(db, passTypeIdentifier, serialNumber))?.pass,
      findTemplate: async (id) => (id <= 2_147_483_647 ? (await store.findTemplate(db, id))?.template : undefined),
      onError: context.onError,
    }),
    eventBatch: createEventBatch(db, { onWritten: context.notify, onError: context.onError }),
    passBatch: createPassBatch(db, { onWritten: context.notify }),
    templates,
    pack: createPacker({ db, signerFor: context.signers.signerFor, builder, templates, cacheBytes: context.limits.pkpassCacheBytes }),
    async commitEvents(work) {
      await db.transaction(work);
      context.notify();
    },
  };
}
