// passmint/server (Node): the self-hosted pass service. Named re-exports only.
export { createServer, type PassmintServer, type ServerOptions } from './create-server.js';
export type { DeliveryAttempt, DeliveryOptions, Worker } from './queue/delivery-worker.js';
export type { Pusher } from './queue/push-worker.js';
export type { GoogleServiceOptions } from './google/service.js';
export { DEFAULT_LIMITS, resolveLimits, type Limits, type ServiceLimits } from './http/limits.js';
export { ClientClosedError } from './http/client-closed.js';
export { MissingPackageError } from './db/missing-package.js';
export { createSqlWalletStore, type SqlWalletStoreOptions } from './db/devices.js';
export { migrate } from './db/schema.js';
export { openPglite, type PgliteOptions } from './db/pglite.js';
export { openPostgres, type PostgresOptions } from './db/postgres.js';
export { isDatabaseUnavailable } from './db/database-errors.js';
export { DEFAULT_DATABASE_LIMITS, type DatabaseLimits, type SqlDatabase, type SqlQueryable } from './db/sql.js';
export { ServiceProblem, type ServiceProblemCode } from '../http/problem.js';
export { createApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord, type ApiKeyScope } from './db/keys.js';
export type { ErrorPlace, LogEntry, LogSink } from './http/log.js';
export type { Metrics } from './metrics.js';
export { openApiDocument } from './routes/api.js';
// What `passmint serve` (src/cli) uses besides createServer: the command imports only this entry point.
export { keyRequest, keyResource } from './routes/keys.js';
export { bufferLines, type LineBuffer } from './http/log.js';
export { leaseProblem } from './queue/lease.js';
export { createSecretBox, readSecretKey, SecretKeyError, type SecretBox } from './db/secret-box.js';
export { folderSecretKey, rotateSecrets, type RotatedSecrets } from './db/secrets.js';
export type { ApnsIdentity, IdentityPusher } from './build/signers.js';
