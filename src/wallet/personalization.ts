// The body Wallet posts to the personalize endpoint (rewards enrollment):
// {"personalizationToken": "…", "requiredPersonalizationInfo": {…}}.

import { isVisibleAscii } from '../http/visible-ascii.js';
import type { PersonalizationInfo } from '../personalization-info.js';

export type { PersonalizationInfo } from '../personalization-info.js';

/**
 * One signup, as `onPersonalize` hears it: which pass, the token Wallet wants
 * back signed, and the user's data.
 *
 * @example
 * ```ts
 * const signup: WalletPersonalization = {
 *   passTypeIdentifier: 'pass.com.example.rewards',
 *   serialNumber: 'R-1001',
 *   personalizationToken: 'e2b4c6…',
 *   requiredPersonalizationInfo: { emailAddress: 'ada@example.com' },
 * };
 * ```
 */
export interface WalletPersonalization {
  readonly passTypeIdentifier: string;
  readonly serialNumber: string;
  /** Opaque to the service; signed with the pass certificate and sent back as the answer. */
  readonly personalizationToken: string;
  readonly requiredPersonalizationInfo: PersonalizationInfo;
}

/** The members of {@link PersonalizationInfo}, in Apple's order. */
export const PERSONALIZATION_INFO_KEYS: readonly (keyof PersonalizationInfo)[] = [
  'fullName',
  'givenName',
  'familyName',
  'emailAddress',
  'postalCode',
  'ISOCountryCode',
  'phoneNumber',
];

const MAX_TOKEN_LENGTH = 4096;
const MAX_VALUE_LENGTH = 1024;

/**
 * Whether a token is one the pass certificate may sign: visible ASCII without
 * braces. Anyone who knows a serial number may post to the personalize call,
 * and the answer is a signature made exactly as a pass's: a token that read as
 * a JSON dictionary could be a forger's manifest.json, signed by the issuer.
 * Visible ASCII has no whitespace, no byte-order mark and no NUL (no UTF-16
 * text), so without `{` no encoding of it is a dictionary.
 */
function isSafeToken(token: string): boolean {
  return isVisibleAscii(token) && !token.includes('{') && !token.includes('}');
}

/**
 * Reads a personalize body: a non-empty `personalizationToken` (at most 4096
 * characters of visible ASCII, no braces) and a `requiredPersonalizationInfo` object whose known members
 * are strings of at most 1024 characters (others are left out). `undefined`
 * when the body is not that.
 */
export function readPersonalizationBody(value: unknown): { personalizationToken: string; requiredPersonalizationInfo: PersonalizationInfo } | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const body = value as Record<string, unknown>;
  const token = Object.hasOwn(body, 'personalizationToken') ? body['personalizationToken'] : undefined;
  const given = Object.hasOwn(body, 'requiredPersonalizationInfo') ? body['requiredPersonalizationInfo'] : undefined;
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH || !isSafeToken(token)) return undefined;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) return undefined;
  const info: Record<string, string> = {};
  for (const key of PERSONALIZATION_INFO_KEYS) {
    if (!Object.hasOwn(given, key)) continue;
    const text = (given as Record<string, unknown>)[key];
    if (typeof text !== 'string' || text.length > MAX_VALUE_LENGTH) return undefined;
    info[key] = text;
  }
  return { personalizationToken: token, requiredPersonalizationInfo: info };
}
