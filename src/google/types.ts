// The public shapes of passmint/google: what the mapping, the client and the callbacks speak.
import type { Severity } from '../issues.js';

/** The Google Wallet pass types passmint maps to. */
export type GoogleWalletType = 'generic' | 'eventTicket' | 'loyalty' | 'offer' | 'flight' | 'transit';

/** A Google Wallet resource name, e.g. `'genericObject'` or `'loyaltyClass'`. */
export type GoogleWalletResource = `${GoogleWalletType | 'giftCard'}${'Class' | 'Object'}`;

/** A Google Wallet class or object, as the REST API reads and writes it (JSON). */
export type GoogleWalletResourceBody = { [key: string]: unknown };

/** What did not carry over from an Apple pass to Google Wallet, by kind. */
export type GoogleLossCode =
  | 'google-location-dropped'
  | 'google-beacon-dropped'
  | 'google-relevant-date-dropped'
  | 'google-color-dropped'
  | 'google-image-dropped'
  | 'google-semantics-dropped'
  | 'google-nfc-dropped'
  | 'google-change-message-dropped'
  | 'google-field-dropped'
  | 'google-field-degraded'
  | 'google-app-link-dropped'
  | 'google-ios-key-dropped'
  | 'google-barcode-dropped'
  | 'google-key-dropped'
  | 'google-type-changed';

/**
 * One thing that did not carry over, located in the pass (the `Issue` shape with a Google code).
 *
 * @example
 * ```ts
 * const loss: GoogleLoss = {
 *   severity: 'warning', code: 'google-location-dropped', path: '/locations',
 *   message: 'Google Wallet shows no location notifications: 2 locations dropped.',
 * };
 * ```
 */
export interface GoogleLoss {
  readonly severity: Extract<Severity, 'warning'>;
  readonly code: GoogleLossCode;
  readonly message: string;
  /** RFC 6901 JSON Pointer into the pass. */
  readonly path: string;
}

/**
 * Options of `toGoogleWallet`.
 *
 * @example
 * ```ts
 * const options: GoogleMapOptions = {
 *   issuerId: '3388000000012345678',
 *   imageUrl: (path) => `https://passes.example.com/images/${path}`,
 *   strings: { de: { 'Seat': 'Sitz' } },
 * };
 * ```
 */
export interface GoogleMapOptions {
  /** The issuer id from the Google Pay & Wallet Console (digits). */
  issuerId: string;
  /** The public https URL of a bundle image (`logo.png`, `strip.png` …); without it no image is mapped. */
  imageUrl?: (path: string) => string | undefined;
  /** The class id suffix; default: derived from `passTypeIdentifier`. */
  classSuffix?: string;
  /** The language of the pass's own texts (BCP 47), default `'en'`. */
  language?: string;
  /**
   * The language numbers, currencies, percents and dates are written in for
   * Google, which shows text exactly as it gets it (BCP 47, formatted with
   * Intl): default `language` when given, else `'en-US'` — fixed, never the
   * runtime's own. Each `.lproj` of `strings` also gets the value formatted
   * in its language.
   */
  locale?: string;
  /**
   * The IANA time zone a date field is shown in (Wallet shows it in the
   * phone's zone; Google shows one text to every holder). Default: the
   * zone the date is written in. A field with `ignoresTimeZone` is always
   * shown as written.
   */
  timeZone?: string;
  /**
   * Smart Tap: the issuer ids whose terminals may read the pass over NFC
   * (each with a Smart Tap key; Google approves issuers for Smart Tap). With
   * them, a pass's `nfc.message` becomes the object's
   * `smartTapRedemptionValue` and the class gets `enableSmartTap`; without
   * them `nfc` is a loss.
   */
  redemptionIssuers?: readonly string[];
  /** Localized `pass.strings`, per language: `{ de: { key: value } }`; they become `translatedValues`. */
  strings?: { readonly [language: string]: { readonly [key: string]: string } };
}

/**
 * What `toGoogleWallet` returns: the Google pass type, the class and object, and the loss report.
 *
 * @example
 * ```ts
 * const { type, class: walletClass, object, losses } = toGoogleWallet(pass, { issuerId });
 * ```
 */
export interface GoogleWalletPass {
  readonly type: GoogleWalletType;
  readonly class: GoogleWalletResourceBody;
  readonly object: GoogleWalletResourceBody;
  readonly losses: readonly GoogleLoss[];
}

/**
 * A checked service-account key.
 *
 * @example
 * ```ts
 * const credentials: GoogleCredentials = readGoogleCredentials(keyFileText);
 * credentials.clientEmail; // 'wallet@project.iam.gserviceaccount.com'
 * ```
 */
export interface GoogleCredentials {
  readonly clientEmail: string;
  /** The RSA private key (PKCS #8 PEM) as the key file holds it. */
  readonly privateKeyPem: string;
  readonly privateKeyId?: string;
  readonly projectId?: string;
}

/**
 * What an "Add to Google Wallet" link carries: objects (full, or `{ id, classId }` when inserted first) and classes.
 *
 * @example
 * ```ts
 * const payload: GoogleSavePayload = { objects: [{ type: 'generic', object }], classes: [{ type: 'generic', class: walletClass }] };
 * ```
 */
export interface GoogleSavePayload {
  objects: readonly { readonly type: GoogleWalletType | 'giftCard'; readonly object: GoogleWalletResourceBody }[];
  classes?: readonly { readonly type: GoogleWalletType | 'giftCard'; readonly class: GoogleWalletResourceBody }[];
  /** Sites allowed to show the button (`https://example.com`). */
  origins?: readonly string[];
}

/**
 * Options of `createSaveUrl`.
 *
 * @example
 * ```ts
 * await createSaveUrl(credentials, payload, { now: Date.now() });
 * ```
 */
export interface SaveUrlOptions {
  /** Milliseconds since 1970; default `Date.now()` (sets `iat`). */
  now?: number;
}

/**
 * Options of `createGoogleWalletClient`.
 *
 * @example
 * ```ts
 * const client = createGoogleWalletClient({ credentials, timeoutMs: 10_000 });
 * ```
 */
export interface GoogleWalletClientOptions {
  credentials: GoogleCredentials;
  /** Default `https://walletobjects.googleapis.com/walletobjects/v1/`. */
  baseUrl?: string;
  /** Default `https://oauth2.googleapis.com/token`. */
  tokenUrl?: string;
  fetch?: typeof fetch;
  /** Per request, default 15,000. */
  timeoutMs?: number;
  /** Largest answer read, default 1 MiB. */
  maxBodyBytes?: number;
  /** Further attempts after a 429 or 5xx, default 3. */
  retries?: number;
  /** The clock, milliseconds; default `Date.now`. */
  now?: () => number;
  /** Waits between attempts; default a timer (tests pass a fake). */
  sleep?: (milliseconds: number) => Promise<void>;
}

/**
 * The REST client: classes and objects by resource name.
 *
 * @example
 * ```ts
 * await client.upsert('genericClass', walletClass);
 * await client.upsert('genericObject', object);
 * await client.addMessage('genericObject', object.id, { header: 'Gate', body: 'Now B12', messageType: 'TEXT_AND_NOTIFY' });
 * ```
 */
export interface GoogleWalletClient {
  insert(resource: GoogleWalletResource, body: GoogleWalletResourceBody): Promise<GoogleWalletResourceBody>;
  get(resource: GoogleWalletResource, id: string): Promise<GoogleWalletResourceBody>;
  patch(resource: GoogleWalletResource, id: string, body: GoogleWalletResourceBody): Promise<GoogleWalletResourceBody>;
  update(resource: GoogleWalletResource, id: string, body: GoogleWalletResourceBody): Promise<GoogleWalletResourceBody>;
  /** Insert; on 409 (the id exists) patch with the same body. */
  upsert(resource: GoogleWalletResource, body: GoogleWalletResourceBody & { id: string }): Promise<GoogleWalletResourceBody>;
  addMessage(resource: GoogleWalletResource, id: string, message: GoogleWalletMessage): Promise<GoogleWalletResourceBody>;
}

/**
 * A message shown on a pass; `TEXT_AND_NOTIFY` also notifies the phone (at most 3 a day per pass).
 *
 * @example
 * ```ts
 * const message: GoogleWalletMessage = { header: 'Gate change', body: 'Now B12', messageType: 'TEXT_AND_NOTIFY' };
 * ```
 */
export interface GoogleWalletMessage {
  header?: string;
  body: string;
  id?: string;
  messageType?: 'TEXT' | 'TEXT_AND_NOTIFY';
}

/**
 * One of Google's root signing keys (`https://pay.google.com/gp/m/issuer/keys`).
 *
 * @example
 * ```ts
 * const key: GoogleRootKey = { keyValue: 'MFkw…', protocolVersion: 'ECv2SigningOnly', keyExpiration: '2154841200000' };
 * ```
 */
export interface GoogleRootKey {
  /** Base64 DER SubjectPublicKeyInfo of a P-256 key. */
  keyValue: string;
  protocolVersion: string;
  /** Milliseconds since 1970, as a string. */
  keyExpiration?: string;
}

/**
 * Options of `verifyGoogleCallback`.
 *
 * @example
 * ```ts
 * await verifyGoogleCallback(body, { issuerId: '3388000000012345678', rootKeys });
 * ```
 */
export interface VerifyGoogleCallbackOptions {
  issuerId: string;
  /** Google's root keys; default fetched with `fetchGoogleRootKeys` (cache them yourself to avoid a fetch per call). */
  rootKeys?: readonly GoogleRootKey[];
  /** Milliseconds since 1970; default `Date.now()`. */
  now?: number;
  fetch?: typeof fetch;
}

/**
 * A verified save or delete callback (`signedMessage`).
 *
 * @example
 * ```ts
 * if (result.ok && result.message.eventType === 'save') console.log(result.message.objectId);
 * ```
 */
export interface GoogleCallbackMessage {
  classId: string;
  objectId: string;
  eventType: 'save' | 'del';
  nonce: string;
  expTimeMillis: number;
  count?: number;
}

/** Why a callback was refused. */
export type GoogleCallbackReason =
  | 'malformed'
  | 'wrong-protocol'
  | 'no-root-key'
  | 'intermediate-signature-invalid'
  | 'intermediate-expired'
  | 'signature-invalid'
  | 'message-malformed'
  | 'message-expired'
  | 'root-keys-unavailable';

/**
 * The answer of `verifyGoogleCallback`.
 *
 * @example
 * ```ts
 * const result: GoogleCallbackResult = await verifyGoogleCallback(body, { issuerId });
 * if (!result.ok) console.warn(result.reason);
 * ```
 */
export type GoogleCallbackResult =
  | { readonly ok: true; readonly message: GoogleCallbackMessage }
  | { readonly ok: false; readonly reason: GoogleCallbackReason };
