// passmint/server (Node): the self-hosted pass service. Named re-exports only.
export { createServer, type PassmintServer, type ServerOptions } from './create-server.js';
export type { DeliveryAttempt, DeliveryOptions, Worker } from './delivery-worker.js';
export type { Pusher } from './push-worker.js';
export type { GoogleServiceOptions } from './google-service.js';
export { DEFAULT_LIMITS, resolveLimits, type Limits, type ServiceLimits } from './limits.js';
export { ClientClosedError } from './client-closed.js';
export { MissingPackageError } from './missing-package.js';
export { createSqlWalletStore, type SqlWalletStoreOptions } from './wallet-store.js';
export { migrate } from './schema.js';
export { openPglite, type PgliteOptions } from './pglite.js';
export { openPostgres, type PostgresOptions } from './postgres.js';
export { isDatabaseUnavailable } from './database-errors.js';
export type { SqlDatabase, SqlQueryable } from './sql.js';
export { ServiceProblem, type ServiceProblemCode } from './problem.js';
export { createApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord, type ApiKeyScope } from './api-keys.js';
export type { ErrorPlace, LogEntry, LogSink } from './log.js';
export type { Metrics } from './metrics.js';
export { openApiDocument } from './openapi.js';
