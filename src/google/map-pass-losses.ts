import { pointerToken } from '../issues.js';
import type { Pass } from '../types.js';
import { loss } from './loss.js';
import type { GoogleLoss, GoogleLossCode } from './types.js';

const IOS18_URLS = [
  'accessibilityURL',
  'addOnURL',
  'bagPolicyURL',
  'changeSeatURL',
  'contactVenueEmail',
  'contactVenuePhoneNumber',
  'contactVenueWebsite',
  'directionsInformationURL',
  'merchandiseURL',
  'orderFoodURL',
  'parkingInformationURL',
  'purchaseParkingURL',
  'sellURL',
  'transferURL',
  'transitInformationURL',
  'entertainmentURL',
  'managementURL',
  'purchaseAdditionalBaggageURL',
  'purchaseLoungeAccessURL',
  'purchaseWifiURL',
  'registerServiceAnimalURL',
  'reportLostBagURL',
  'requestWheelchairURL',
  'trackBagsURL',
  'transitProviderEmail',
  'transitProviderPhoneNumber',
  'transitProviderWebsiteURL',
  'upgradeURL',
] as const;

const IOS18_KEYS = [
  'preferredStyleSchemes',
  'eventLogoText',
  'upcomingPassInformation',
  'suppressHeaderDarkening',
  'useAutomaticColors',
  'footerBackgroundColor',
  'featuredActions',
] as const;

/** Pass keys Google has no place for, with the code and the reason. */
const DROPPED: readonly (readonly [key: keyof Pass, code: GoogleLossCode, why: string])[] = [
  ['maxDistance', 'google-location-dropped', 'Google Wallet decides itself how near a merchant location a pass is shown'],
  ['beacons', 'google-beacon-dropped', 'Google Wallet has no beacons'],
  ['relevantDate', 'google-relevant-date-dropped', 'Google Wallet has no relevant date on the lock screen'],
  ['relevantDates', 'google-relevant-date-dropped', 'Google Wallet has no relevant dates on the lock screen'],
  ['foregroundColor', 'google-color-dropped', 'Google Wallet picks the text color from the background'],
  ['labelColor', 'google-color-dropped', 'Google Wallet picks the label color from the background'],
  ['appLaunchURL', 'google-app-link-dropped', 'Google Wallet links Android apps (appLinkData), not App Store apps'],
  ['associatedStoreIdentifiers', 'google-app-link-dropped', 'Google Wallet links Android apps (appLinkData), not App Store apps'],
  ['auxiliaryStoreIdentifiers', 'google-app-link-dropped', 'Google Wallet links Android apps (appLinkData), not App Store apps'],
  ['sharingProhibited', 'google-key-dropped', 'Google Wallet has no such setting on a pass'],
  ['suppressStripShine', 'google-key-dropped', 'Google Wallet draws no strip shine'],
];

/**
 * Losses of the pass's own keys (not its fields): distance, dates, colors,
 * app links, iOS 18+ keys (iOS 27's featuredActions too), semantic tags not used.
 */
export function passLosses(pass: Pass, usedSemantics: ReadonlySet<string>): GoogleLoss[] {
  const losses: GoogleLoss[] = [];
  const record = pass as unknown as Record<string, unknown>;
  for (const [key, code, why] of DROPPED) {
    if (record[key] !== undefined) losses.push(loss(code, `/${key}`, `${why}: ${key} is left out.`));
  }
  for (const key of [...IOS18_KEYS, ...IOS18_URLS]) {
    if (record[key] !== undefined) losses.push(loss('google-ios-key-dropped', `/${key}`, `${key} is an iOS 18+ key Google Wallet has no place for.`));
  }
  const semantics = pass.semantics;
  if (semantics !== undefined && semantics !== null && typeof semantics === 'object') {
    for (const key of Object.keys(semantics)) {
      if (usedSemantics.has(key)) continue;
      losses.push(loss('google-semantics-dropped', `/semantics/${pointerToken(key)}`, `Google Wallet has no place for the semantic tag ${key}.`));
    }
  } else if (semantics !== undefined) {
    losses.push(loss('google-semantics-dropped', '/semantics', 'semantics is not an object of semantic tags: it is left out.'));
  }
  return losses;
}
