import { type Context, describe, type Dict, expectKind, isDict, quote, report } from './context.js';

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

const REQUIRED = ['description', 'formatVersion', 'organizationName', 'passTypeIdentifier', 'serialNumber', 'teamIdentifier'] as const;
const PASS_TYPE_IDENTIFIER = /^pass\.[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;
const TEAM_IDENTIFIER = /^[A-Z0-9]{10}$/;
// RFC 3986 unreserved characters: they travel in URL paths without escaping.
const NOT_URL_SAFE = /[^A-Za-z0-9._~-]/;
const MIN_TOKEN_LENGTH = 16;

/**
 * The rules on a pass's identifiers and web-service keys: the six required
 * keys, `formatVersion` 1, the pass type and team identifiers, the serial
 * number, the authentication token and `webServiceURL` (https unless
 * `allowHttp`), and that the last two come together.
 */
export function checkPassKeys(context: Context, pass: unknown, allowHttp: boolean): void {
  if (!isDict(pass)) return;
  for (const key of REQUIRED) {
    if (get(pass, key) === undefined) report(context, 'error', 'missing-key', `/${key}`, `${quote(key)} is required`);
  }
  checkFormatVersion(context, get(pass, 'formatVersion'));
  checkPassTypeIdentifier(context, get(pass, 'passTypeIdentifier'));
  checkTeamIdentifier(context, get(pass, 'teamIdentifier'));
  checkSerialNumber(context, get(pass, 'serialNumber'));
  const description = get(pass, 'description');
  if (description !== undefined) expectKind(context, description, 'string', '/description', '`description` (the pass’s accessibility text)');
  const organization = get(pass, 'organizationName');
  if (organization !== undefined) expectKind(context, organization, 'string', '/organizationName', '`organizationName`');
  const token = get(pass, 'authenticationToken');
  const url = get(pass, 'webServiceURL');
  if (token !== undefined) checkToken(context, token);
  if (url !== undefined) checkWebServiceUrl(context, url, allowHttp);
  if ((token === undefined) !== (url === undefined)) {
    const [present, missing] = token === undefined ? ['webServiceURL', 'authenticationToken'] : ['authenticationToken', 'webServiceURL'];
    report(context, 'error', 'unpaired-web-service', `/${missing}`, `${quote(present)} is set, so ${quote(missing)} is required too: Wallet needs both or neither`);
  }
}

function get(pass: Dict, key: string): unknown {
  return Object.hasOwn(pass, key) ? pass[key] : undefined;
}

function checkFormatVersion(context: Context, value: unknown): void {
  if (value === undefined || value === 1) return;
  report(context, 'error', 'invalid-format-version', '/formatVersion', `\`formatVersion\` must be the number 1, not ${describe(value)}`);
}

function checkPassTypeIdentifier(context: Context, value: unknown): void {
  if (value === undefined || !expectKind(context, value, 'string', '/passTypeIdentifier', '`passTypeIdentifier`')) return;
  if (!PASS_TYPE_IDENTIFIER.test(value as string)) {
    report(
      context,
      'error',
      'invalid-pass-type-identifier',
      '/passTypeIdentifier',
      `\`passTypeIdentifier\` must be "pass." followed by a reverse-DNS name (e.g. pass.com.example.membership-card), not ${describe(value)}`,
    );
  }
}

function checkTeamIdentifier(context: Context, value: unknown): void {
  if (value === undefined || !expectKind(context, value, 'string', '/teamIdentifier', '`teamIdentifier`')) return;
  if (!TEAM_IDENTIFIER.test(value as string)) {
    report(context, 'warning', 'invalid-team-identifier', '/teamIdentifier', `\`teamIdentifier\` is usually Apple's 10-character team ID of upper-case letters and digits (e.g. A93A5CM278), not ${describe(value)}`);
  }
}

function checkSerialNumber(context: Context, value: unknown): void {
  if (value === undefined || !expectKind(context, value, 'string', '/serialNumber', '`serialNumber`')) return;
  const serial = value as string;
  if (serial === '') {
    report(context, 'error', 'empty-serial-number', '/serialNumber', '`serialNumber` must not be empty');
    return;
  }
  const unsafe = NOT_URL_SAFE.exec(serial);
  if (unsafe !== null) {
    context.issues.push({
      severity: 'warning',
      code: 'unsafe-serial-number',
      message: `\`serialNumber\` appears in URL paths; ${describe(unsafe[0])} must be percent-encoded there (letters, digits and - . _ ~ are safe)`,
      path: '/serialNumber',
      offset: unsafe.index,
    });
  }
}

function checkToken(context: Context, value: unknown): void {
  if (!expectKind(context, value, 'string', '/authenticationToken', '`authenticationToken`')) return;
  const length = (value as string).length;
  if (length < MIN_TOKEN_LENGTH) {
    report(context, 'error', 'short-authentication-token', '/authenticationToken', `\`authenticationToken\` must be at least ${MIN_TOKEN_LENGTH} characters, not ${length}`);
  }
}

function checkWebServiceUrl(context: Context, value: unknown, allowHttp: boolean): void {
  if (!expectKind(context, value, 'string', '/webServiceURL', '`webServiceURL`')) return;
  let protocol: string;
  try {
    protocol = new URL(value as string).protocol;
  } catch {
    report(context, 'error', 'invalid-web-service-url', '/webServiceURL', `\`webServiceURL\` must be an absolute https URL, not ${describe(value)}`);
    return;
  }
  if (protocol === 'https:') return;
  if (protocol === 'http:') {
    report(
      context,
      allowHttp ? 'warning' : 'error',
      'insecure-web-service-url',
      '/webServiceURL',
      allowHttp
        ? '`webServiceURL` uses plain http, which Wallet accepts only on development devices'
        : '`webServiceURL` must use https (Wallet accepts plain http only on development devices; pass { allowHttp: true } to allow it)',
    );
    return;
  }
  report(context, 'error', 'invalid-web-service-url', '/webServiceURL', `\`webServiceURL\` must be an https URL, not ${describe(value)}`);
}
