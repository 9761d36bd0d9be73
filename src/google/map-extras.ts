import type { Pass } from '../types.js';
import { pointerToken } from '../issues.js';
import { GoogleWalletError } from './error.js';
import { loss } from './loss.js';
import type { GoogleLoss } from './types.js';

/** Google shows at most this many merchant locations of a pass. */
export const MAX_MERCHANT_LOCATIONS = 10;

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * Apple's `locations` as Google's `merchantLocations` (latitude and
 * longitude, at most 10): Google shows the pass near them. What Google has
 * no place for — a location's `relevantText` (Google writes its own
 * notification), its `altitude`, a location beyond the tenth or without
 * valid coordinates — is a located loss.
 */
export function mapLocations(locations: unknown): { merchantLocations?: { latitude: number; longitude: number }[]; losses: GoogleLoss[] } {
  if (locations === undefined) return { losses: [] };
  if (!Array.isArray(locations)) return { losses: [loss('google-location-dropped', '/locations', 'locations is not an array of places: it is left out.')] };
  const losses: GoogleLoss[] = [];
  const merchantLocations: { latitude: number; longitude: number }[] = [];
  locations.forEach((entry: unknown, index) => {
    const path = `/locations/${index}`;
    const place = entry !== null && typeof entry === 'object' && !Array.isArray(entry) ? (entry as Record<string, unknown>) : undefined;
    const latitude = place !== undefined && Object.hasOwn(place, 'latitude') ? place['latitude'] : undefined;
    const longitude = place !== undefined && Object.hasOwn(place, 'longitude') ? place['longitude'] : undefined;
    if (place === undefined || !isNumber(latitude) || !isNumber(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
      losses.push(loss('google-location-dropped', path, 'This location has no valid latitude and longitude: it is left out.'));
      return;
    }
    if (merchantLocations.length >= MAX_MERCHANT_LOCATIONS) {
      losses.push(loss('google-location-dropped', path, `Google Wallet takes at most ${MAX_MERCHANT_LOCATIONS} merchant locations: this one is left out.`));
      return;
    }
    merchantLocations.push({ latitude, longitude });
    for (const key of Object.keys(place)) {
      if (key === 'latitude' || key === 'longitude') continue;
      const why =
        key === 'relevantText' ? 'Google Wallet writes its own notification near a merchant location' : `Google Wallet has no place for a location's ${key}`;
      losses.push(loss('google-location-dropped', `${path}/${pointerToken(key)}`, `${why}: ${key} is left out.`));
    }
  });
  return merchantLocations.length === 0 ? { losses } : { merchantLocations, losses };
}

/**
 * Checks `redemptionIssuers`: a non-empty list of issuer ids (digits), else `invalid-argument`.
 */
export function checkRedemptionIssuers(issuers: readonly string[] | undefined): readonly string[] | undefined {
  if (issuers === undefined) return undefined;
  if (!Array.isArray(issuers) || issuers.length === 0 || !issuers.every((id) => typeof id === 'string' && /^[0-9]{1,32}$/.test(id))) {
    throw new GoogleWalletError(
      'invalid-argument',
      'redemptionIssuers must be a non-empty list of Google issuer ids (digits): the issuers whose Smart Tap terminals may read the pass.',
    );
  }
  return issuers;
}

/** What Smart Tap adds to the class and the object, and what of Apple's `nfc` it cannot carry. */
export interface SmartTapParts {
  readonly classFields: Record<string, unknown>;
  readonly objectFields: Record<string, unknown>;
  readonly losses: GoogleLoss[];
}

/**
 * Apple's NFC (`nfc`) as Google's Smart Tap: with `redemptionIssuers` the
 * class gets `enableSmartTap` and `redemptionIssuers`, the object
 * `smartTapRedemptionValue` = `nfc.message`. Smart Tap encrypts with the keys
 * the redemption issuer set up with Google, so `encryptionPublicKey` and
 * `requiresAuthentication` are losses. Without `redemptionIssuers` the whole
 * `nfc` is a loss that says what is missing.
 */
export function mapNfc(pass: Pass, redemptionIssuers: readonly string[] | undefined): SmartTapParts {
  const nfc: unknown = pass.nfc;
  const empty: SmartTapParts = { classFields: {}, objectFields: {}, losses: [] };
  if (nfc === undefined) return empty;
  const record = nfc !== null && typeof nfc === 'object' && !Array.isArray(nfc) ? (nfc as Record<string, unknown>) : undefined;
  const message = record !== undefined && Object.hasOwn(record, 'message') ? record['message'] : undefined;
  if (typeof message !== 'string' || message === '') {
    return { ...empty, losses: [loss('google-nfc-dropped', '/nfc', 'nfc has no message (a string) to send over Smart Tap: it is left out.')] };
  }
  if (redemptionIssuers === undefined) {
    return {
      ...empty,
      losses: [
        loss(
          'google-nfc-dropped',
          '/nfc',
          'Google Wallet sends NFC data through Smart Tap: give redemptionIssuers (the issuer ids whose terminals may read the pass, approved for Smart Tap by Google) to carry nfc.message as smartTapRedemptionValue; without them nfc is left out.',
        ),
      ],
    };
  }
  const losses: GoogleLoss[] = [];
  for (const key of Object.keys(record as object)) {
    if (key === 'message') continue;
    const why =
      key === 'encryptionPublicKey'
        ? 'Smart Tap encrypts with the key the redemption issuer set up with Google, not this one'
        : key === 'requiresAuthentication'
          ? 'Smart Tap has no per-pass setting to require unlocking the phone'
          : `Smart Tap has no place for nfc.${key}`;
    losses.push(loss('google-nfc-dropped', `/nfc/${pointerToken(key)}`, `${why}: ${key} is left out.`));
  }
  return {
    classFields: { enableSmartTap: true, redemptionIssuers: [...redemptionIssuers] },
    objectFields: { smartTapRedemptionValue: message },
    losses,
  };
}
