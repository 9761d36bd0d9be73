/**
 * Every problem passmint reports, as a stable string code.
 *
 * Codes are grouped by the stage that reports them. A code never changes
 * meaning once released; new codes may be added.
 */
export type IssueCode =
  // placeholder notation (scanPlaceholders)
  | 'invalid-placeholder'
  | 'unterminated-placeholder'
  // template checks (validateTemplate)
  | 'invalid-template'
  | 'undeclared-placeholder'
  | 'unused-placeholder'
  | 'duplicate-placeholder'
  // rendering (render, renderTemplate, buildPass)
  | 'missing-value'
  | 'invalid-value'
  | 'unknown-value'
  | 'invalid-issuer'
  // pass checks (validatePass): shape
  | 'invalid-pass'
  | 'missing-key'
  | 'invalid-type'
  | 'unknown-key'
  // pass checks: identifiers and web service
  | 'invalid-format-version'
  | 'invalid-pass-type-identifier'
  | 'invalid-team-identifier'
  | 'empty-serial-number'
  | 'unsafe-serial-number'
  | 'short-authentication-token'
  | 'invalid-web-service-url'
  | 'insecure-web-service-url'
  | 'unpaired-web-service'
  | 'missing-store-identifiers'
  // pass checks: style bodies
  | 'missing-style'
  | 'multiple-styles'
  | 'missing-transit-type'
  | 'invalid-transit-type'
  | 'unexpected-transit-type'
  | 'unexpected-grouping-identifier'
  // pass checks: fields
  | 'duplicate-field-key'
  | 'invalid-text-alignment'
  | 'text-alignment-not-allowed'
  | 'invalid-date-style'
  | 'date-style-needs-date'
  | 'incomplete-date-style'
  | 'invalid-number-style'
  | 'invalid-currency-code'
  | 'number-style-needs-number'
  | 'currency-code-needs-number'
  | 'number-style-with-currency'
  | 'invalid-data-detector'
  | 'data-detectors-outside-back'
  | 'invalid-change-message'
  | 'unsupported-attributed-value'
  // pass checks: barcodes, colors, dates, other keys
  | 'invalid-barcode-format'
  | 'code128-in-barcode'
  | 'invalid-color'
  | 'hex-color'
  | 'invalid-date'
  | 'out-of-range'
  | 'nfc-message-too-long'
  // issue 31: nfc.encryptionPublicKey not a P-256 SubjectPublicKeyInfo; requiresAuthentication without sharingProhibited (warnings)
  | 'invalid-nfc-public-key'
  | 'nfc-sharing-allowed'
  // signer (createPassSigner): paths '/certificate', '/privateKey', '/wwdr'
  | 'invalid-certificate'
  | 'invalid-key'
  | 'wrong-passphrase'
  | 'key-mismatch'
  | 'wrong-wwdr'
  | 'certificate-expired'
  | 'certificate-not-yet-valid'
  | 'not-pass-certificate'
  // package contents (packPass, readPass, verifyPass): paths are bundle paths ('/icon.png', '/de.lproj/pass.strings')
  | 'invalid-zip'
  | 'zip-limit-exceeded'
  | 'unsafe-path'
  | 'reserved-path'
  | 'duplicate-entry'
  | 'missing-pass-json'
  | 'invalid-json'
  | 'missing-icon'
  | 'not-png'
  | 'unused-image'
  | 'unused-file'
  | 'image-size'
  // issue 28: a PNG declaring more pixels than passmint signs or serves (MAX_IMAGE_SIDE, MAX_DECODED_IMAGE_BYTES)
  | 'image-too-large'
  | 'invalid-strings'
  | 'too-many-passes'
  // manifest (verifyPass): path '/manifest.json'
  | 'missing-manifest'
  | 'invalid-manifest'
  | 'missing-from-manifest'
  | 'missing-file'
  | 'hash-mismatch'
  // signature (verifyPass): path '/signature'
  | 'missing-signature'
  | 'invalid-signature'
  | 'signature-mismatch'
  | 'digest-mismatch'
  | 'missing-signing-time'
  | 'missing-certificate'
  | 'missing-wwdr'
  | 'untrusted-chain'
  | 'identity-mismatch'
  // signature (verifyPass): signed by a `passmint cert --dev` identity, whose chain is not Apple's (warning)
  | 'development-certificate'
  // signature (verifyPass): the signature carries its own content, not the manifest's bytes
  | 'signed-content-mismatch'
  // pass.json as read (readPass, verifyPass): a number JavaScript cannot hold exactly, so writing the pass again changes it (warning)
  | 'lossy-json'
  // personalization.json (rewards enrollment): paths '/personalization.json/…'
  | 'invalid-personalization-field'
  | 'missing-personalization-logo'
  // issue 11: JSON text (parseJsonText): a member given twice, path of the repeated member
  | 'duplicate-key'
  // JSON text (parseJsonText): a comma before a closing bracket, path of the member it follows (warning)
  | 'trailing-comma'
  // issue 11: pass checks, what Wallet shows and encodes
  | 'too-many-fields'
  | 'unknown-message-encoding'
  | 'barcode-message-unencodable'
  | 'barcode-message-too-long'
  // pass checks, iOS 18–27 (warnings: Wallet opens the pass and falls back or leaves the part out)
  | 'missing-fallback-style'
  | 'missing-barcode-fallback'
  | 'too-many-featured-actions'
  | 'unknown-featured-action-type'
  | 'duplicate-featured-action'
  | 'unknown-style-scheme'
  | 'style-scheme-fallback';

/** `error` makes a report fail; `warning` is advice that never does. */
export type Severity = 'error' | 'warning';

/**
 * One problem, located.
 *
 * @example
 * ```ts
 * const issue: Issue = {
 *   severity: 'error',
 *   code: 'undeclared-placeholder',
 *   message: 'Placeholder "nmae" is not declared; did you mean "name"?',
 *   path: '/description/logoText',
 *   placeholder: 'nmae',
 *   offset: 0,
 * };
 * ```
 */
export interface Issue {
  readonly severity: Severity;
  readonly code: IssueCode;
  /** One sentence for a person; wording may change between versions, `code` does not. */
  readonly message: string;
  /** RFC 6901 JSON Pointer into the object that was checked; `''` is the whole object. */
  readonly path: string;
  /** The placeholder (or value name) concerned, when there is one. */
  readonly placeholder?: string;
  /** For text problems: index of the character inside the string at `path`. */
  readonly offset?: number;
}

/**
 * What every `validate*` function returns: `ok` is `true` when no issue is an error.
 *
 * @example
 * ```ts
 * const report: Report = validatePass(pass);
 * if (!report.ok) console.error(report.issues);
 * ```
 */
export interface Report {
  readonly ok: boolean;
  readonly issues: readonly Issue[];
}

/**
 * Makes a report from a list of issues.
 *
 * @example
 * ```ts
 * toReport([]).ok; // true
 * ```
 */
export function toReport(issues: readonly Issue[]): Report {
  return { ok: !issues.some((issue) => issue.severity === 'error'), issues };
}

/**
 * Escapes one JSON Pointer reference token (RFC 6901: `~` → `~0`, `/` → `~1`).
 *
 * @example
 * ```ts
 * pointerToken('a/b'); // 'a~1b'
 * ```
 */
export function pointerToken(key: string | number): string {
  if (typeof key === 'number') return String(key);
  // Most keys need no escaping; skip the two replacements for them.
  return key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key;
}

/**
 * The JSON Pointer of a location given as a prefix and a stack of keys — how
 * walkers keep their position cheaply and build a pointer only when needed.
 *
 * @example
 * ```ts
 * pointerOf('/description', ['generic', 'primaryFields', 0]); // '/description/generic/primaryFields/0'
 * ```
 */
export function pointerOf(prefix: string, keys: readonly (string | number)[]): string {
  let pointer = prefix;
  for (const key of keys) pointer += `/${pointerToken(key)}`;
  return pointer;
}

/**
 * Appends one key to a JSON Pointer.
 *
 * @example
 * ```ts
 * joinPointer('/generic', 'primaryFields'); // '/generic/primaryFields'
 * ```
 */
export function joinPointer(pointer: string, key: string | number): string {
  return `${pointer}/${pointerToken(key)}`;
}
