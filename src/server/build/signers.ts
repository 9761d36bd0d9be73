import type { PushResult } from '../../apns/classify.js';
import type { PushOptions } from '../../apns/client.js';
import { ServiceProblem } from '../../http/problem.js';
import { createPassSigner, type PassSigner } from '../../pkpass/signer.js';
import { certificatesVersion, listCertificates, sealedPrivateKey, type CertificateRecord } from '../db/certificates.js';
import { SecretKeyError, type SecretBox } from '../db/secret-box.js';
import { SECRET_PURPOSE } from '../db/secrets.js';
import type { SqlQueryable } from '../db/sql.js';

/** How long a process trusts its copy of the certificates before asking the database whether they changed (one primary-key read). */
const CHECK_MS = 1000;

/**
 * The identity of a pass type as APNs needs it: the certificate and its key
 * in PEM (the TLS client certificate for pushes of that topic).
 *
 * @example
 * ```ts
 * const identity: ApnsIdentity = { id: 'flags', topic: 'pass.com.example.member', certificatePem, privateKeyPem };
 * ```
 */
export interface ApnsIdentity {
  /** Names the identity for caching clients: a certificate's id, or `start` for the one given at start. */
  readonly id: string;
  readonly topic: string;
  readonly certificatePem: string;
  readonly privateKeyPem: string;
}

/** An APNs sender for one identity (an `ApnsClient`). */
export interface IdentityPusher {
  push(pushToken: string, topic: string, options?: PushOptions): Promise<PushResult>;
  close?(): Promise<void>;
}

/** The certificate a pass type's expiry is reported from (metrics, the console). */
export interface CertificateExpiry {
  readonly passTypeIdentifier: string;
  readonly teamIdentifier: string;
  readonly notAfter: Date;
  readonly wwdrNotAfter: Date;
  /** `uploaded` (`/v1/certificates`) or `start` (`--cert`). */
  readonly source: 'uploaded' | 'start';
}

/**
 * Who signs each pass type: the certificate uploaded for it
 * (`/v1/certificates`), else the one given at start (`--cert`) when it is
 * that pass type's. Each process keeps a copy of the certificates (not their
 * keys) and checks the database's version of them at most once a second, so
 * a replacement uploaded to any process signs every new package within a
 * second, without a restart; signers are made once per certificate.
 *
 * @example
 * ```ts
 * const signers = createSignerRegistry({ db, box, fixed: startSigner });
 * const signer = await signers.signerFor('pass.com.example.member'); // 503 certificate-expired past its date
 * ```
 */
export interface SignerRegistry {
  /** The signer of a pass type, `undefined` when it has none; throws 503 `certificate-expired` when its certificate (or WWDR) has expired. */
  signerFor(passTypeIdentifier: string): Promise<PassSigner | undefined>;
  /** The team written into passes of a pass type, from the copy in memory (`undefined`: the issuer's). */
  teamFor(passTypeIdentifier: string): string | undefined;
  /** The APNs identity of a topic (pass type), or `undefined`. */
  apnsIdentity(topic: string): Promise<ApnsIdentity | undefined>;
  /** Every pass type's certificate and its expiry (uploaded ones, then the start one when no upload covers its pass type). */
  expiries(): Promise<CertificateExpiry[]>;
  /** Reads the certificates again now (after a change made by this process). */
  refresh(): Promise<void>;
}

/** What {@link createSignerRegistry} needs. */
export interface SignerRegistryOptions {
  readonly db: SqlQueryable;
  /** Opens the sealed private keys; without it uploaded certificates cannot sign. */
  readonly box: SecretBox | undefined;
  /** The identity given at start (`--cert`, `--key`, `--wwdr`). */
  readonly fixed?: PassSigner | undefined;
  /** The start identity's certificate and key in PEM, for its APNs pushes. */
  readonly fixedApns?: { readonly certificatePem: string; readonly privateKeyPem: string } | undefined;
  readonly now?: (() => number) | undefined;
}

/**
 * The service's signer registry (see {@link SignerRegistry}).
 *
 * @example
 * ```ts
 * const signers = createSignerRegistry({ db, box });
 * await signers.refresh();
 * ```
 */
export function createSignerRegistry(options: SignerRegistryOptions): SignerRegistry {
  const { db, box, fixed } = options;
  const now = options.now ?? Date.now;
  let byPassType = new Map<string, CertificateRecord>();
  let version = -1;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<void> | undefined;
  const signers = new Map<string, Promise<PassSigner>>();
  const keys = new Map<string, Promise<string>>();

  const reload = async (): Promise<void> => {
    const seen = await certificatesVersion(db);
    if (seen !== version) {
      const records = await listCertificates(db);
      byPassType = new Map(records.map((record) => [record.passTypeIdentifier, record]));
      version = seen;
      // Signers and keys of certificates that are gone are let go.
      const ids = new Set(records.map((record) => record.id));
      for (const map of [signers, keys]) for (const id of map.keys()) if (!ids.has(id)) map.delete(id);
    }
    checkedAt = now();
  };
  const current = async (): Promise<Map<string, CertificateRecord>> => {
    if (now() - checkedAt >= CHECK_MS) {
      reading ??= reload().finally(() => {
        reading = undefined;
      });
      await reading;
    }
    return byPassType;
  };

  const privateKeyOf = (record: CertificateRecord): Promise<string> => {
    let key = keys.get(record.id);
    if (key === undefined) {
      key = (async () => {
        const sealed = await sealedPrivateKey(db, record.id);
        if (sealed === undefined) throw new ServiceProblem(404, 'certificate-not-found', 'The certificate was deleted; upload another.');
        if (box === undefined)
          throw new ServiceProblem(
            503,
            'secret-key-missing',
            "The service has no secret key to open the certificate's private key with (PASSMINT_SECRET_KEY).",
          );
        try {
          return box.open(sealed, SECRET_PURPOSE.privateKey);
        } catch (error) {
          // Rotated by another process (passmint serve secrets rotate): this one still holds the old key.
          if (!(error instanceof SecretKeyError)) throw error;
          throw new ServiceProblem(503, 'secret-key-missing', `${error.message} Restart this process with the current secret key.`);
        }
      })();
      key.catch(() => keys.delete(record.id));
      keys.set(record.id, key);
    }
    return key;
  };

  const checkDates = (passType: string, notAfter: Date, wwdrNotAfter: Date): void => {
    const at = now();
    const expired = notAfter.getTime() <= at ? 'certificate' : wwdrNotAfter.getTime() <= at ? 'Apple WWDR intermediate' : undefined;
    if (expired === undefined) return;
    throw new ServiceProblem(
      503,
      'certificate-expired',
      `The ${expired} that signs passes of "${passType}" expired on ${(expired === 'certificate' ? notAfter : wwdrNotAfter).toISOString()}: make a new Pass Type ID certificate in the Apple Developer portal and upload it (POST /v1/certificates) — no restart needed.`,
    );
  };

  return {
    async signerFor(passTypeIdentifier) {
      const record = (await current()).get(passTypeIdentifier);
      if (record === undefined) {
        if (fixed === undefined || fixed.passTypeIdentifier !== passTypeIdentifier) return undefined;
        checkDates(passTypeIdentifier, fixed.notAfter, fixed.wwdrNotAfter);
        return fixed;
      }
      checkDates(passTypeIdentifier, record.notAfter, record.wwdrNotAfter);
      let signer = signers.get(record.id);
      if (signer === undefined) {
        signer = (async () => createPassSigner({ certificate: record.certificate, privateKey: await privateKeyOf(record), wwdr: record.wwdr }))();
        signer.catch(() => signers.delete(record.id));
        signers.set(record.id, signer);
      }
      return signer;
    },
    teamFor(passTypeIdentifier) {
      // The copy in memory, refreshed in the background when it is due.
      if (now() - checkedAt >= CHECK_MS) void current().catch(() => undefined);
      return byPassType.get(passTypeIdentifier)?.teamIdentifier ?? (fixed?.passTypeIdentifier === passTypeIdentifier ? fixed.teamIdentifier : undefined);
    },
    async apnsIdentity(topic) {
      const record = (await current()).get(topic);
      if (record === undefined) {
        if (fixed === undefined || fixed.passTypeIdentifier !== topic || options.fixedApns === undefined) return undefined;
        return { id: 'start', topic, ...options.fixedApns };
      }
      return { id: record.id, topic, certificatePem: derToPem(record.certificate), privateKeyPem: await privateKeyOf(record) };
    },
    async expiries() {
      const records = [...(await current()).values()];
      const list: CertificateExpiry[] = records.map((record) => ({
        passTypeIdentifier: record.passTypeIdentifier,
        teamIdentifier: record.teamIdentifier,
        notAfter: record.notAfter,
        wwdrNotAfter: record.wwdrNotAfter,
        source: 'uploaded',
      }));
      if (fixed !== undefined && !byPassType.has(fixed.passTypeIdentifier)) {
        list.push({
          passTypeIdentifier: fixed.passTypeIdentifier,
          teamIdentifier: fixed.teamIdentifier,
          notAfter: fixed.notAfter,
          wwdrNotAfter: fixed.wwdrNotAfter,
          source: 'start',
        });
      }
      return list;
    },
    async refresh() {
      checkedAt = Number.NEGATIVE_INFINITY;
      await current();
    },
  };
}

/** A DER certificate as PEM. */
export function derToPem(der: Uint8Array): string {
  const body = Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
}

/**
 * APNs pushes sent with each topic's own identity: a client per identity
 * (made by `clientFor`, kept until the identity is replaced), else
 * `fallback` (the pusher given at start); `rejected` when the topic has
 * neither.
 *
 * @example
 * ```ts
 * const pusher = createTopicPusher(signers, (identity) => createApnsClient({ certificate: { cert: identity.certificatePem, key: identity.privateKeyPem } }));
 * ```
 */
export function createTopicPusher(
  signers: Pick<SignerRegistry, 'apnsIdentity'>,
  clientFor: ((identity: ApnsIdentity) => IdentityPusher) | undefined,
  fallback: IdentityPusher | undefined,
): IdentityPusher & { close(): Promise<void> } {
  // One client per topic, for the identity it was made with: a replacement gets a new one and the old one is closed.
  const clients = new Map<string, { readonly id: string; readonly client: IdentityPusher }>();
  return {
    async push(pushToken, topic, pushOptions) {
      const identity = clientFor === undefined ? undefined : await signers.apnsIdentity(topic);
      if (identity === undefined || clientFor === undefined || (identity.id === 'start' && fallback !== undefined)) {
        if (fallback !== undefined) return fallback.push(pushToken, topic, pushOptions);
        return { outcome: 'rejected', reason: 'NoIdentityForTopic', error: `No certificate for ${topic}: upload one (POST /v1/certificates).` };
      }
      let held = clients.get(topic);
      if (held?.id !== identity.id) {
        void held?.client.close?.();
        held = { id: identity.id, client: clientFor(identity) };
        clients.set(topic, held);
      }
      return held.client.push(pushToken, topic, pushOptions);
    },
    async close() {
      await Promise.all([...clients.values()].map((held) => held.client.close?.()));
      clients.clear();
    },
  };
}
