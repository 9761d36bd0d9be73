import type { PassSigner } from '../../pkpass/signer.js';
import type { FetchLike } from '../../webhooks/post.js';
import type { SignerRegistry } from '../build/signers.js';
import type { ApiKeyChecker } from '../db/keys.js';
import type { SecretBox } from '../db/secret-box.js';
import type { SqlDatabase } from '../db/sql.js';
import type { GoogleService } from '../google/service.js';
import type { Limits } from '../http/limits.js';
import type { ErrorPlace } from '../http/log.js';
import { originOf } from '../http/origin.js';

/** What the process's metrics give a route: `GET /metrics` answers their text. */
interface MetricsText {
  render(): Promise<string>;
}

/** What every route of the service shares: the service's options and the parts `createServer` made for it. */
export interface ServiceContext {
  readonly db: SqlDatabase;
  /** Whether a request carries a valid API key (any scope). */
  readonly authenticate: (request: Request) => Promise<boolean>;
  /** The API key check with scopes. */
  readonly keys: ApiKeyChecker;
  /** The process's counters, and what `GET /metrics` answers. */
  readonly metrics: MetricsText;
  /** A token that opens `GET /metrics` besides an API key. */
  readonly metricsToken: string | undefined;
  readonly signer: PassSigner | undefined;
  /** Who signs each pass type: the certificates uploaded (`/v1/certificates`), else `signer`. */
  readonly signers: SignerRegistry;
  /** Seals and opens the secrets stored (private keys, webhook secrets, Google's account); `undefined` without a secret key. */
  readonly secretBox: SecretBox | undefined;
  /** Apple's WWDR intermediate given at start (DER): the default of an uploaded certificate's. */
  readonly wwdr: Uint8Array | undefined;
  readonly issuer: { readonly teamIdentifier: string; readonly organizationName: string };
  /** Where the service is reached (an origin); otherwise each request's own origin. */
  readonly publicUrl: string | undefined;
  /** Queue APNs pushes when a pass changes. */
  readonly pushes: boolean;
  /** Google Wallet, when configured: a class per template, an object per pass, kept in step through the queue. */
  readonly google?: GoogleService | undefined;
  readonly webhooks: {
    readonly allowPrivateNetworks: boolean;
    readonly timeoutMs?: number | undefined;
    readonly fetch?: FetchLike | undefined;
  };
  readonly maxBodyBytes: number;
  readonly maxFileBytes: number;
  /** What a pass holder or a client can make the service do (see docs/limits.md). */
  readonly limits: Limits;
  /** Called after a commit that queued events or pushes: wakes this process's workers. */
  readonly notify: () => void;
  readonly onError: (error: unknown, where?: ErrorPlace) => void;
}

/** The origin links and `webServiceURL` are built from. */
export function baseUrl(context: ServiceContext, request: Request): string {
  return originOf(context.publicUrl, request);
}
