import { type Context, describe, type Dict, expectKind, isDict, isDynamic, type Kind, quote, report } from './context.js';
import { reportUnknownKey } from './unknown-key.js';
import { type Check, checkDate } from './values.js';

const NFC_MAX_BYTES = 64;

interface Member {
  readonly kind: Kind | 'date';
  readonly required?: true;
  readonly min?: number;
  readonly max?: number;
}

const LOCATION: ReadonlyMap<string, Member> = new Map<string, Member>([
  ['latitude', { kind: 'number', required: true, min: -90, max: 90 }],
  ['longitude', { kind: 'number', required: true, min: -180, max: 180 }],
  ['altitude', { kind: 'number' }],
  ['relevantText', { kind: 'string' }],
]);
const BEACON: ReadonlyMap<string, Member> = new Map<string, Member>([
  ['proximityUUID', { kind: 'string', required: true }],
  ['major', { kind: 'integer', min: 0, max: 65535 }],
  ['minor', { kind: 'integer', min: 0, max: 65535 }],
  ['relevantText', { kind: 'string' }],
]);
const NFC: ReadonlyMap<string, Member> = new Map<string, Member>([
  ['message', { kind: 'string', required: true }],
  ['encryptionPublicKey', { kind: 'string' }],
  ['requiresAuthentication', { kind: 'boolean' }],
]);
const RELEVANT_DATE: ReadonlyMap<string, Member> = new Map<string, Member>([
  ['date', { kind: 'date' }],
  ['startDate', { kind: 'date' }],
  ['endDate', { kind: 'date' }],
]);

/** An element of `locations`. */
export const checkLocation: Check = (context, value, path, name) => {
  checkRecord(context, value, path, name, LOCATION, 'a location');
};

/** An element of `beacons`. */
export const checkBeacon: Check = (context, value, path, name) => {
  checkRecord(context, value, path, name, BEACON, 'a beacon');
};

/** An element of `relevantDates`. */
export const checkRelevantDate: Check = (context, value, path, name) => {
  checkRecord(context, value, path, name, RELEVANT_DATE, 'a relevant date');
};

/** `nfc`: its message is at most 64 bytes of UTF-8. */
export const checkNfc: Check = (context, value, path, name) => {
  const record = checkRecord(context, value, path, name, NFC, '`nfc`');
  const message = record?.['message'];
  if (typeof message !== 'string' || isDynamic(context, message)) return;
  const bytes = utf8Length(message);
  if (bytes > NFC_MAX_BYTES) {
    report(context, 'error', 'nfc-message-too-long', `${path}/message`, `The NFC \`message\` is ${bytes} bytes of UTF-8; Wallet allows at most ${NFC_MAX_BYTES}`);
  }
};

/** `maxDistance`: a distance in meters. */
export const checkMaxDistance: Check = (context, value, path, name) => {
  if (expectKind(context, value, 'number', path, quote(name)) && (value as number) < 0) {
    report(context, 'error', 'out-of-range', path, `\`maxDistance\` is a distance in meters and cannot be negative: ${describe(value)}`);
  }
};

function checkRecord(context: Context, value: unknown, path: string, name: string, members: ReadonlyMap<string, Member>, what: string): Dict | undefined {
  if (isDynamic(context, value)) return undefined;
  if (!isDict(value)) {
    report(context, 'error', 'invalid-type', path, `${quote(name)} must be an object, not ${describe(value)}`);
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const child = value[key];
    if (child === undefined) continue;
    const member = members.get(key);
    const at = `${path}/${key}`;
    if (member === undefined) {
      reportUnknownKey(context, key, path, [...members.keys()], what);
    } else if (member.kind === 'date') {
      checkDate(context, child, at, key);
    } else if (expectKind(context, child, member.kind, at, quote(key)) && member.min !== undefined && member.max !== undefined) {
      const number = child as number;
      if (number < member.min || number > member.max) {
        report(context, 'error', 'out-of-range', at, `${quote(key)} must be between ${member.min} and ${member.max}, not ${number}`);
      }
    }
  }
  for (const [key, member] of members) {
    if (member.required === true && (!Object.hasOwn(value, key) || value[key] === undefined)) {
      report(context, 'error', 'missing-key', `${path}/${key}`, `${what[0]?.toUpperCase()}${what.slice(1)} needs ${quote(key)}`);
    }
  }
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
