// The development identity `passmint cert --dev` makes (a stand-in root, WWDR
// and Pass Type ID certificate, so a first pass can be signed without an Apple
// account) carries this organization in every subject; verifyPass recognizes
// it and says the chain is not Apple's.

import { OID } from '../oids.js';
import { type Name, nameValue } from './name.js';

/**
 * The organization (O) of every certificate of a development identity.
 *
 * @example
 * ```ts
 * DEVELOPMENT_ORGANIZATION; // 'passmint development identity - not accepted by iPhones'
 * ```
 */
export const DEVELOPMENT_ORGANIZATION = 'passmint development identity - not accepted by iPhones';

/**
 * Whether a certificate name is one of a passmint development identity.
 *
 * @example
 * ```ts
 * isDevelopmentName(certificate.subject); // true for `passmint cert --dev` output
 * ```
 */
export function isDevelopmentName(name: Name): boolean {
  return nameValue(name, OID.organization) === DEVELOPMENT_ORGANIZATION && nameValue(name, OID.commonName) !== undefined;
}
