import { type Context, describe, type Dict, expectKind, quote, report } from './context.js';
import { remember } from './remember.js';
import type { Check } from './values.js';

/** The keys an issuer adds to a body; only a complete pass has (and needs) them. */
export const PASS_LEVEL_KEYS: readonly string[] = [
  'serialNumber',
  'passTypeIdentifier',
  'formatVersion',
  'description',
  'organizationName',
  'teamIdentifier',
  'authenticationToken',
  'webServiceURL',
];

// One bit per pass-level key, to know which are present after the walk.
const DESCRIPTION = 1;
const FORMAT_VERSION = 2;
const ORGANIZATION_NAME = 4;
const PASS_TYPE_IDENTIFIER_BIT = 8;
const SERIAL_NUMBER = 16;
const TEAM_IDENTIFIER_BIT = 32;
const AUTHENTICATION_TOKEN = 64;
const WEB_SERVICE_URL = 128;
const REQUIRED: readonly (readonly [string, number])[] = [
  ['description', DESCRIPTION],
  ['formatVersion', FORMAT_VERSION],
  ['organizationName', ORGANIZATION_NAME],
  ['passTypeIdentifier', PASS_TYPE_IDENTIFIER_BIT],
  ['serialNumber', SERIAL_NUMBER],
  ['teamIdentifier', TEAM_IDENTIFIER_BIT],
];
const ALL_REQUIRED = 63;
/** Wallet's shortest `authenticationToken`. */
export const MIN_TOKEN_LENGTH = 16;

const PASS_PREFIX = 'pass.';
const PASS_TYPE_IDENTIFIER = /^pass\.[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;
const TEAM_IDENTIFIER = /^[A-Z0-9]{10}$/;
// RFC 3986 unreserved characters travel in URL paths without escaping.
const URL_SAFE = /^[A-Za-z0-9._~-]*$/;
const NOT_URL_SAFE = /[^A-Za-z0-9._~-]/;
// The common, certainly valid https URL (an ASCII host name whose last label
// starts with a letter, so it is never read as IPv4; a port of at most four
// digits; printable ASCII after it) skips the slower URL parser.
const PLAIN_HTTPS_URL = /^https:\/\/(?:[A-Za-z0-9-]+\.)*[A-Za-z][A-Za-z0-9-]*(?::\d{1,4})?(?:[/?#][!-~]*)?$/;

/** The fast path of the URL check, exported for its test. */
export const PLAIN_HTTPS_URL_FOR_TEST: RegExp = PLAIN_HTTPS_URL;

const isPassTypeIdentifier = remember((text) => PASS_TYPE_IDENTIFIER.test(text));
const isTeamIdentifier = remember((text) => TEAM_IDENTIFIER.test(text));
const urlProtocol = remember((text): string => {
  if (PLAIN_HTTPS_URL.test(text)) return 'https:';
  try {
    return new URL(text).protocol;
  } catch {
    return '';
  }
});

function passKey(bit: number, check: (context: Context, value: unknown, allowHttp: boolean) => void): Check {
  return (context, value) => {
    const state = context.pass;
    if (state === undefined) return; // a template body: the issuer adds these keys
    state.present |= bit;
    check(context, value, state.allowHttp);
  };
}

/**
 * The checks of the pass-level keys, run while the body's keys are walked
 * when a complete pass is checked (the context has a `pass` state); no-ops in
 * a template body.
 */
export const PASS_KEY_CHECKS: ReadonlyMap<string, Check> = new Map<string, Check>([
  ['serialNumber', passKey(SERIAL_NUMBER, checkSerialNumber)],
  ['passTypeIdentifier', passKey(PASS_TYPE_IDENTIFIER_BIT, checkPassTypeIdentifier)],
  ['formatVersion', passKey(FORMAT_VERSION, checkFormatVersion)],
  ['description', passKey(DESCRIPTION, (context, value) => expectKind(context, value, 'string', 'description'))],
  ['organizationName', passKey(ORGANIZATION_NAME, (context, value) => expectKind(context, value, 'string', 'organizationName'))],
  ['teamIdentifier', passKey(TEAM_IDENTIFIER_BIT, checkTeamIdentifier)],
  ['authenticationToken', passKey(AUTHENTICATION_TOKEN, checkToken)],
  ['webServiceURL', passKey(WEB_SERVICE_URL, checkWebServiceUrl)],
]);

/**
 * After the walk: the six required keys, and that `webServiceURL` and
 * `authenticationToken` come together.
 */
export function finishPassKeys(context: Context): void {
  const state = context.pass;
  if (state === undefined) return;
  const { present } = state;
  if ((present & ALL_REQUIRED) !== ALL_REQUIRED) {
    for (const [key, bit] of REQUIRED) {
      if ((present & bit) === 0) report(context, 'error', 'missing-key', key, `${quote(key)} is required`);
    }
  }
  const token = (present & AUTHENTICATION_TOKEN) !== 0;
  const url = (present & WEB_SERVICE_URL) !== 0;
  if (url && !token) {
    report(
      context,
      'error',
      'unpaired-web-service',
      'authenticationToken',
      '`webServiceURL` is set, so `authenticationToken` is required too: Wallet cannot register with the web service without it',
    );
  } else if (token && !url) {
    // Real passes carry a token and no web service; Wallet opens them and never uses the token (SOURCES.md).
    report(
      context,
      'warning',
      'unpaired-web-service',
      'webServiceURL',
      '`authenticationToken` is set without a `webServiceURL`: Wallet never uses it (the pass gets no updates); add the web service or leave the token out',
    );
  }
}

/**
 * Whether the pass-level keys of `pass` hold no error (warnings aside): the
 * conditions of the checks above and of {@link finishPassKeys}, for the fast
 * path of buildPass, which writes these keys itself. Keep in step with them.
 */
export function passKeysAreValid(pass: Dict, allowHttp: boolean): boolean {
  const { serialNumber, passTypeIdentifier, description, organizationName, teamIdentifier, authenticationToken, webServiceURL } = pass;
  if (
    typeof serialNumber !== 'string' ||
    serialNumber === '' ||
    typeof passTypeIdentifier !== 'string' ||
    !passTypeIdentifier.startsWith(PASS_PREFIX) ||
    passTypeIdentifier.length === PASS_PREFIX.length ||
    pass['formatVersion'] !== 1 ||
    typeof description !== 'string' ||
    typeof organizationName !== 'string' ||
    typeof teamIdentifier !== 'string'
  ) {
    return false;
  }
  if (authenticationToken === undefined) return webServiceURL === undefined;
  if (typeof authenticationToken !== 'string' || authenticationToken.length < MIN_TOKEN_LENGTH) return false;
  if (webServiceURL === undefined) return true; // a warning only
  if (typeof webServiceURL !== 'string') return false;
  const protocol = urlProtocol(webServiceURL);
  return protocol === 'https:' || (allowHttp && protocol === 'http:');
}

function checkFormatVersion(context: Context, value: unknown): void {
  if (value !== 1) {
    report(context, 'error', 'invalid-format-version', 'formatVersion', `\`formatVersion\` must be the number 1, not ${describe(value)}`);
  }
}

// Wallet accepts a pass whose identifier equals its signing certificate's,
// and Apple issues certificates only for identifiers that start `pass.`:
// anything else is refused (an error). Past that prefix, Apple has issued
// names that are not clean reverse-DNS (`pass.au.com.spinninghalf.demo..gig.x`,
// a real certificate): an identifier Apple issued is not ours to refuse, so
// another shape is only a warning.
function checkPassTypeIdentifier(context: Context, value: unknown): void {
  if (!expectKind(context, value, 'string', 'passTypeIdentifier') || isPassTypeIdentifier(value as string)) return;
  const issued = (value as string).startsWith(PASS_PREFIX) && (value as string).length > PASS_PREFIX.length;
  report(
    context,
    issued ? 'warning' : 'error',
    'invalid-pass-type-identifier',
    'passTypeIdentifier',
    issued
      ? `\`passTypeIdentifier\` is usually "pass." followed by a reverse-DNS name (e.g. pass.com.example.membership-card), not ${describe(value)}; Wallet accepts it when it is exactly the identifier of the signing certificate`
      : `\`passTypeIdentifier\` must start with "pass." (Apple issues pass type identifiers only in that form, and Wallet requires the signing certificate's), not ${describe(value)}`,
  );
}

function checkTeamIdentifier(context: Context, value: unknown): void {
  if (!expectKind(context, value, 'string', 'teamIdentifier') || isTeamIdentifier(value as string)) return;
  report(
    context,
    'warning',
    'invalid-team-identifier',
    'teamIdentifier',
    `\`teamIdentifier\` is usually Apple's 10-character team ID of upper-case letters and digits (e.g. A93A5CM278), not ${describe(value)}`,
  );
}

function checkSerialNumber(context: Context, value: unknown): void {
  if (!expectKind(context, value, 'string', 'serialNumber')) return;
  const serial = value as string;
  if (serial === '') {
    report(context, 'error', 'empty-serial-number', 'serialNumber', '`serialNumber` must not be empty');
    return;
  }
  if (URL_SAFE.test(serial)) return;
  const unsafe = NOT_URL_SAFE.exec(serial);
  const index = unsafe?.index ?? 0;
  const character = String.fromCodePoint(serial.codePointAt(index) ?? 0);
  report(
    context,
    'warning',
    'unsafe-serial-number',
    'serialNumber',
    `\`serialNumber\` appears in URL paths; ${describe(character)} must be percent-encoded there (letters, digits and - . _ ~ are safe)`,
    index,
  );
}

function checkToken(context: Context, value: unknown): void {
  if (!expectKind(context, value, 'string', 'authenticationToken')) return;
  const length = (value as string).length;
  if (length < MIN_TOKEN_LENGTH) {
    report(
      context,
      'error',
      'short-authentication-token',
      'authenticationToken',
      `\`authenticationToken\` must be at least ${MIN_TOKEN_LENGTH} characters, not ${length}`,
    );
  }
}

function checkWebServiceUrl(context: Context, value: unknown, allowHttp: boolean): void {
  if (!expectKind(context, value, 'string', 'webServiceURL')) return;
  const protocol = urlProtocol(value as string);
  if (protocol === 'https:') return;
  if (protocol === '') {
    report(context, 'error', 'invalid-web-service-url', 'webServiceURL', `\`webServiceURL\` must be an absolute https URL, not ${describe(value)}`);
    return;
  }
  if (protocol === 'http:') {
    report(
      context,
      allowHttp ? 'warning' : 'error',
      'insecure-web-service-url',
      'webServiceURL',
      allowHttp
        ? '`webServiceURL` uses plain http, which Wallet accepts only on development devices'
        : '`webServiceURL` must use https (Wallet accepts plain http only on development devices; pass { allowHttp: true } to allow it)',
    );
    return;
  }
  report(context, 'error', 'invalid-web-service-url', 'webServiceURL', `\`webServiceURL\` must be an https URL, not ${describe(value)}`);
}
