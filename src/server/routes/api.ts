// Every route the service's router serves, in the order it tries them, and
// the OpenAPI document read from them (with Apple's web service, which the
// wallet handler serves).
import type { Route } from './define.js';
import { auditRoutes } from './audit.js';
import { certificateRoutes } from './certificates.js';
import { googleCredentialRoutes } from './google-credentials.js';
import { eventRoutes } from './events.js';
import { googleRoutes } from './google.js';
import { importRoutes } from './imports.js';
import { jobRoutes } from './jobs.js';
import { keyRoutes } from './keys.js';
import { bundleRoutes } from './bundles.js';
import { messageRoutes } from './messages.js';
import { shareRoutes } from './share.js';
import { lifecycleRoutes } from './lifecycle.js';
import { publishRoutes } from './publish.js';
import { templateVersionRoutes } from './template-versions.js';
import { describeApi } from './openapi.js';
import { openApiRoute, opsRoutes } from './ops.js';
import { passRoutes } from './passes.js';
import { statsRoutes } from './stats.js';
import { timelineRoutes } from './timeline.js';
import { templateRoutes } from './templates.js';
import { walletRouteDocs } from './wallet.js';
import { webhookRoutes } from './webhooks.js';

/** The routes of the service's API (Apple's web service under `/wallet/` is the wallet handler's). */
export const API_ROUTES: readonly Route[] = [
  ...templateRoutes,
  ...importRoutes,
  ...jobRoutes,
  ...messageRoutes,
  ...bundleRoutes,
  ...publishRoutes,
  ...templateVersionRoutes,
  ...passRoutes,
  ...timelineRoutes,
  ...statsRoutes,
  ...lifecycleRoutes,
  ...webhookRoutes,
  ...eventRoutes,
  ...keyRoutes,
  ...certificateRoutes,
  ...googleCredentialRoutes,
  ...auditRoutes,
  openApiRoute(() => openApiDocument()),
  ...opsRoutes,
  ...googleRoutes,
  ...shareRoutes,
];

let document: Record<string, unknown> | undefined;

/**
 * The OpenAPI 3.1 document of the whole service: the API under `/v1/`,
 * Apple's web service under `/wallet/`, Google Wallet's routes, and the
 * operations routes. Each operation names the API key scope it needs
 * (`x-scope`, and `security`).
 *
 * @example
 * ```ts
 * const spec = openApiDocument();
 * Object.keys(spec.paths as object); // ['/v1/templates', …]
 * ```
 */
export function openApiDocument(): Record<string, unknown> {
  document ??= describeApi([...API_ROUTES, ...walletRouteDocs]);
  return document;
}
