import type { JsonObject } from '../types.js';
import type { PersonalizationInfo } from '../personalization-info.js';

/** Data of the events about one pass (`pass.*`) and its wallet registrations (`registration.*`). */
export interface PassEventData {
  readonly serialNumber: string;
  readonly passTypeIdentifier: string;
}

/**
 * Data of `pass.personalized`: the pass, and what the user gave in Wallet's
 * signup form (rewards enrollment) — the members of Apple's
 * `RequiredPersonalizationInfo` that were filled in.
 */
export interface PersonalizedEventData extends PassEventData {
  readonly personalization: PersonalizationInfo;
}

/**
 * Data of `registration.created` and `registration.deleted`: the pass, and
 * which wallet it was added to or removed from.
 *
 * @example
 * ```ts
 * const data: RegistrationEventData = { serialNumber: 'M-1', passTypeIdentifier: 'pass.com.example.member', wallet: 'google', objectId: '3388000000012345678.pass_2ecom_2eexample_2emember.M-1' };
 * ```
 */
export interface RegistrationEventData extends PassEventData {
  /** `"apple"` (a device registered through Apple's web service) or `"google"` (Google Wallet's save/delete callback); newer services may add others. */
  readonly wallet?: string;
  /** Apple: the device that registered or unregistered. */
  readonly deviceLibraryIdentifier?: string;
  /** Google: the Google Wallet object saved or deleted. */
  readonly objectId?: string;
}

/**
 * Data of `job.completed`: a job of the service (an import) ended, with its
 * counts. `state` is `succeeded`, `failed` or `cancelled`.
 *
 * @example
 * ```ts
 * const data: JobCompletedEventData = { jobId: '3f0c…', kind: 'import', state: 'succeeded', templateId: 7, rows: 3, created: 2, updated: 0, unchanged: 0, failed: 1 };
 * ```
 */
export interface JobCompletedEventData {
  readonly jobId: string;
  /** `import`; newer services may add others. */
  readonly kind: string;
  readonly state: string;
  readonly templateId: number | null;
  /** Records in the job's input. */
  readonly rows: number;
  readonly created: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly failed: number;
}

/**
 * Data of `certificate.expiring`: a Pass Type ID certificate the service
 * signs with expires within `thresholdDays` (30, 7 or 1; sent once for each,
 * and at once for a certificate uploaded with less left). Upload its renewal
 * (`POST /v1/certificates`) before `notAfter`.
 *
 * @example
 * ```ts
 * const data: CertificateExpiringEventData = { certificateId: '0b6f…', fingerprint: '5c0e…', passTypeIdentifier: 'pass.com.example.member', teamIdentifier: 'A1B2C3D4E5', notAfter: '2027-03-01T12:00:00Z', daysLeft: 29, thresholdDays: 30 };
 * ```
 */
export interface CertificateExpiringEventData {
  /** The uploaded certificate's id; `null` for the one given at start (`--cert`). */
  readonly certificateId: string | null;
  /** SHA-256 of the certificate's DER, hex. */
  readonly fingerprint: string;
  readonly passTypeIdentifier: string;
  readonly teamIdentifier: string;
  /** When it expires: `YYYY-MM-DDTHH:MM:SSZ`. */
  readonly notAfter: string;
  /** Whole days left (0 on its last day). */
  readonly daysLeft: number;
  readonly thresholdDays: number;
}

/** Data of `webhook.verify`: the token the receiver answers with. */
export interface VerifyEventData {
  readonly token: string;
}

/**
 * The event types passmint knows, with their `data`.
 *
 * `webhook.verify` and `pass.created` are the spec's; `pass.updated`,
 * `pass.downloaded`, `registration.created` (a device added the pass to a
 * wallet), `registration.deleted` (removed) and `pass.personalized` (the
 * user signed up through a rewards-enrollment pass) complete the set.
 */
export interface WebhookEventDataMap {
  readonly 'webhook.verify': VerifyEventData;
  readonly 'pass.created': PassEventData;
  readonly 'pass.updated': PassEventData;
  readonly 'pass.downloaded': PassEventData;
  readonly 'registration.created': RegistrationEventData;
  readonly 'registration.deleted': RegistrationEventData;
  readonly 'pass.personalized': PersonalizedEventData;
  readonly 'job.completed': JobCompletedEventData;
  /** The pass was voided (Wallet shows it as void; Google Wallet as no longer valid). */
  readonly 'pass.voided': PassEventData;
  /** The pass was expired (its `expirationDate` set to the time of the call). */
  readonly 'pass.expired': PassEventData;
  /** An expired pass was made valid again. */
  readonly 'pass.reactivated': PassEventData;
  /** A signing certificate expires soon (30, 7 and 1 days before). */
  readonly 'certificate.expiring': CertificateExpiringEventData;
}

/** `'webhook.verify' | 'pass.created' | …` */
export type KnownEventType = keyof WebhookEventDataMap;

/**
 * An event object as delivered: `id` is UUID-shaped, `created` is
 * `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds).
 *
 * @example
 * ```ts
 * const event: WebhookEventOf<'pass.created'> = {
 *   id: '9f1c7d5e-3b0a-4c7e-9a51-2d7f8e6b4c10',
 *   type: 'pass.created',
 *   created: '2025-03-01T12:00:00Z',
 *   data: { serialNumber: 'E5982H-I2', passTypeIdentifier: 'pass.com.example.ticket' },
 * };
 * ```
 */
export interface WebhookEventOf<TType extends KnownEventType> {
  readonly id: string;
  readonly type: TType;
  readonly created: string;
  readonly data: WebhookEventDataMap[TType];
}

/** One of the known events, discriminated by `type`. */
export type KnownWebhookEvent = { [TType in KnownEventType]: WebhookEventOf<TType> }[KnownEventType];

/** An event whose type this version does not know: accepted, with `data` left `unknown`. */
export interface UnknownWebhookEvent {
  readonly id: string;
  readonly type: string;
  readonly created: string;
  readonly data: unknown;
}

/**
 * What a receiver gets: a known event or an unknown one. Narrow with
 * `isEventType(event, 'pass.created')` — comparing `event.type` alone cannot
 * narrow, since an unknown event's `type` is any string.
 */
export type WebhookEvent = KnownWebhookEvent | UnknownWebhookEvent;

/** `data` accepted by `createEvent` for a type passmint does not know. */
export type CustomEventData = JsonObject;
