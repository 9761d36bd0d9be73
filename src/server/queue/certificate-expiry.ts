import { createEvent } from '../../webhooks/event.js';
import { formatEventTime } from '../../webhooks/timestamp.js';
import { claimExpiryWarning, listCertificates } from '../db/certificates.js';
import { addEvents } from '../db/outbox.js';
import type { SqlDatabase } from '../db/sql.js';
import { createPeriodic, type Periodic } from './periodic.js';

/** Days before a certificate's end at which `certificate.expiring` is sent. */
export const EXPIRY_THRESHOLDS: readonly number[] = [30, 7, 1];

const DAY = 86_400_000;

/**
 * A certificate the service signs with, as the expiry check sees it: an
 * uploaded one (`id`), or the one given at start (`id: null`).
 *
 * @example
 * ```ts
 * const start: WatchedCertificate = { id: null, passTypeIdentifier: 'pass.com.example.member', teamIdentifier: 'A1B2C3D4E5', notAfter, fingerprint };
 * ```
 */
export interface WatchedCertificate {
  readonly id: string | null;
  readonly passTypeIdentifier: string;
  readonly teamIdentifier: string;
  readonly notAfter: Date;
  /** SHA-256 of its DER, hex: what a warning is recorded by. */
  readonly fingerprint: string;
}

/**
 * Sends `certificate.expiring` for every certificate within 30, 7 or 1 days
 * of its end that has not had that warning: once per certificate and
 * threshold across every process (a row per pair, inserted in the event's
 * transaction). A certificate already within several thresholds (uploaded
 * with less left, or a service stopped for a while) gets one event, for the
 * nearest. The certificate given at start (`start`) is watched too, unless
 * one uploaded for its pass type has taken over. Resolves to the number of
 * events added.
 *
 * @example
 * ```ts
 * const sent = await warnExpiringCertificates(db); // at start, hourly, and after an upload
 * ```
 */
export async function warnExpiringCertificates(db: SqlDatabase, now: number = Date.now(), start?: WatchedCertificate): Promise<number> {
  let sent = 0;
  const uploaded: WatchedCertificate[] = await listCertificates(db);
  const watched =
    start === undefined || uploaded.some((certificate) => certificate.passTypeIdentifier === start.passTypeIdentifier) ? uploaded : [...uploaded, start];
  for (const certificate of watched) {
    const left = certificate.notAfter.getTime() - now;
    const crossed = EXPIRY_THRESHOLDS.filter((days) => left <= days * DAY);
    if (crossed.length === 0) continue;
    const nearest = Math.min(...crossed);
    const added = await db.transaction(async (tx) => {
      let fresh = false;
      // The nearest first: when it was sent, so were the ones before it.
      for (const days of [...crossed].sort((a, b) => a - b)) {
        const claimed = await claimExpiryWarning(tx, certificate.fingerprint, days);
        if (days === nearest) fresh = claimed;
        if (!claimed) break;
      }
      if (fresh) await addEvents(tx, [expiringEvent(certificate, left, nearest)]);
      return fresh;
    });
    if (added) sent++;
  }
  return sent;
}

function expiringEvent(certificate: WatchedCertificate, left: number, thresholdDays: number) {
  return createEvent('certificate.expiring', {
    certificateId: certificate.id,
    fingerprint: certificate.fingerprint,
    passTypeIdentifier: certificate.passTypeIdentifier,
    teamIdentifier: certificate.teamIdentifier,
    notAfter: formatEventTime(certificate.notAfter),
    daysLeft: Math.max(0, Math.floor(left / DAY)),
    thresholdDays,
  });
}

/**
 * The expiry check on a timer: soon after start, then every `intervalMs`
 * (default an hour).
 *
 * @example
 * ```ts
 * const watch = watchCertificateExpiry(db, { onWritten: wake, onError });
 * watch.start();
 * ```
 */
export function watchCertificateExpiry(
  db: SqlDatabase,
  options: {
    readonly intervalMs?: number | undefined;
    /** The certificate given at start, watched too. */
    readonly start?: WatchedCertificate | undefined;
    readonly onWritten: () => void;
    readonly onError: (error: unknown) => void;
  },
): Periodic {
  const interval = options.intervalMs ?? 3_600_000;
  return createPeriodic(
    async () => {
      if ((await warnExpiringCertificates(db, Date.now(), options.start)) > 0) options.onWritten();
    },
    { firstMs: 0, intervalMs: interval, onError: options.onError },
  );
}
