import { type Context, describe, type Dict, expectKind, isDict, isDynamic, type Key, type Kind, nameOf, quote, report, mayInherit } from './context.js';
import type { Sites } from './sites.js';
import { nfcKeyProblem } from './nfc-key.js';
import { reportUnknownKey } from './unknown-key.js';
import { type Check, checkDate } from './values.js';

const NFC_MAX_BYTES = 64;

interface Member {
  readonly kind: Kind | 'date';
  readonly required?: true;
  readonly min?: number;
  readonly max?: number;
}

interface Shape {
  readonly what: string;
  readonly members: ReadonlyMap<string, Member>;
  readonly names: readonly string[];
}

function shape(what: string, members: readonly (readonly [string, Member])[]): Shape {
  return { what, members: new Map(members), names: members.map(([name]) => name) };
}

const LOCATION = shape('a location', [
  ['latitude', { kind: 'number', required: true, min: -90, max: 90 }],
  ['longitude', { kind: 'number', required: true, min: -180, max: 180 }],
  ['altitude', { kind: 'number' }],
  ['relevantText', { kind: 'string' }],
]);
const BEACON = shape('a beacon', [
  ['proximityUUID', { kind: 'string', required: true }],
  ['major', { kind: 'integer', min: 0, max: 65535 }],
  ['minor', { kind: 'integer', min: 0, max: 65535 }],
  ['relevantText', { kind: 'string' }],
]);
const NFC = shape('`nfc`', [
  ['message', { kind: 'string', required: true }],
  ['encryptionPublicKey', { kind: 'string' }],
  ['requiresAuthentication', { kind: 'boolean' }],
]);
const RELEVANT_DATE = shape('a relevant date', [
  ['date', { kind: 'date' }],
  // iOS 18's name for `date`, still read (passes made for iOS 18 use it).
  ['relevantDate', { kind: 'date' }],
  ['startDate', { kind: 'date' }],
  ['endDate', { kind: 'date' }],
]);

// What a placeholder may render to in these records for checkRecord to find
// no error (see sites.ts): strings and dates are tested; numbers have ranges
// and the NFC message a length, so they are 'none'.
function sitesOf({ members }: Shape, except = ''): Sites {
  return () => (name) => {
    const kind = members.get(name)?.kind;
    return kind === undefined ? 'any' : name === except ? 'none' : kind === 'string' || kind === 'date' ? kind : 'none';
  };
}
export const LOCATION_SITES: Sites = { each: sitesOf(LOCATION) };
export const BEACON_SITES: Sites = { each: sitesOf(BEACON) };
export const RELEVANT_DATE_SITES: Sites = { each: sitesOf(RELEVANT_DATE) };
export const NFC_SITES: Sites = sitesOf(NFC, 'message');

/** An element of `locations`. */
export const checkLocation: Check = (context, value, key) => {
  checkRecord(context, value, key, LOCATION);
};

/** An element of `beacons`. */
export const checkBeacon: Check = (context, value, key) => {
  checkRecord(context, value, key, BEACON);
};

/** An element of `relevantDates`. */
export const checkRelevantDate: Check = (context, value, key) => {
  checkRecord(context, value, key, RELEVANT_DATE);
};

/**
 * `nfc`: a `message` of at most 64 bytes of UTF-8 (an error: Wallet refuses
 * more), an `encryptionPublicKey` that is a P-256 SubjectPublicKeyInfo (a
 * warning: no terminal can read the pass otherwise, but no refusal of the
 * pass is documented). `sharingProhibited` with `requiresAuthentication` is
 * advised in checkPassBody, which sees both.
 */
export const checkNfc: Check = (context, value, key) => {
  const record = checkRecord(context, value, key, NFC);
  if (record === undefined) return;
  context.stack.push(key);
  const message = Object.hasOwn(record, 'message') ? record['message'] : undefined;
  if (typeof message === 'string' && !isDynamic(context, message)) {
    const bytes = utf8Length(message);
    if (bytes > NFC_MAX_BYTES) {
      report(context, 'error', 'nfc-message-too-long', 'message', `The NFC \`message\` is ${bytes} bytes of UTF-8; Wallet allows at most ${NFC_MAX_BYTES}`);
    }
  }
  const publicKey = Object.hasOwn(record, 'encryptionPublicKey') ? record['encryptionPublicKey'] : undefined;
  if (typeof publicKey === 'string' && !isDynamic(context, publicKey)) {
    const problem = nfcKeyProblem(publicKey);
    if (problem !== undefined) {
      report(
        context,
        'warning',
        'invalid-nfc-public-key',
        'encryptionPublicKey',
        `The NFC \`encryptionPublicKey\` ${problem}; a terminal encrypts to this key, so no reader can use the pass's NFC payload`,
      );
    }
  }
  context.stack.pop();
};

/**
 * Whether a pass's `nfc` asks for authentication without `sharingProhibited`:
 * Apple advises both together (a pass that needs Face ID or Touch ID to be
 * read at a terminal should not be shared to another person's Wallet).
 */
export function checkNfcSharing(context: Context, body: Dict): void {
  const nfc = Object.hasOwn(body, 'nfc') ? body['nfc'] : undefined;
  if (!isDict(nfc) || !Object.hasOwn(nfc, 'requiresAuthentication') || nfc['requiresAuthentication'] !== true) return;
  const sharing = Object.hasOwn(body, 'sharingProhibited') ? body['sharingProhibited'] : undefined;
  if (sharing === true || isDynamic(context, sharing)) return;
  report(
    context,
    'warning',
    'nfc-sharing-allowed',
    'sharingProhibited',
    "`nfc.requiresAuthentication` is true but `sharingProhibited` is not: Apple advises setting `sharingProhibited: true` with it, so the pass cannot be shared to someone else's Wallet",
  );
}

/** `maxDistance`: a distance in meters. */
export const checkMaxDistance: Check = (context, value, key) => {
  if (expectKind(context, value, 'number', key) && (value as number) < 0) {
    report(context, 'error', 'out-of-range', key, `\`maxDistance\` is a distance in meters and cannot be negative: ${describe(value)}`);
  }
};

function checkRecord(context: Context, value: unknown, key: Key, { what, members, names }: Shape): Dict | undefined {
  if (isDynamic(context, value)) return undefined;
  if (!isDict(value)) {
    report(context, 'error', 'invalid-type', key, `${nameOf(context, key)} must be an object, not ${describe(value)}`);
    return undefined;
  }
  context.stack.push(key);
  const inherited = mayInherit(context, value);
  for (const name in value) {
    if (inherited && !Object.hasOwn(value, name)) continue;
    const child = value[name];
    if (child === undefined) continue;
    const member = members.get(name);
    if (member === undefined) {
      reportUnknownKey(context, name, names, what);
    } else if (member.kind === 'date') {
      checkDate(context, child, name);
    } else if (expectKind(context, child, member.kind, name) && member.min !== undefined && member.max !== undefined) {
      const number = child as number;
      if (number < member.min || number > member.max) {
        report(context, 'error', 'out-of-range', name, `${quote(name)} must be between ${member.min} and ${member.max}, not ${number}`);
      }
    }
  }
  for (const [name, member] of members) {
    if (member.required === true && (!Object.hasOwn(value, name) || value[name] === undefined)) {
      report(context, 'error', 'missing-key', name, `${what[0]?.toUpperCase()}${what.slice(1)} needs ${quote(name)}`);
    }
  }
  context.stack.pop();
  return value;
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        index++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
