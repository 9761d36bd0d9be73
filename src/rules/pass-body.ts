import type { Issue } from '../issues.js';
import type { PassStyle, StyleKey } from '../types.js';
import { BARCODE_SITES, checkBarcodeFallback, checkListedBarcode, checkSingleBarcode } from './barcode.js';
import { checkFeaturedActions, FEATURED_ACTIONS_SITES } from './featured-actions.js';
import { type Context, createContext, describe, type Dict, isDict, isDynamic, mayInherit, report } from './context.js';
import { finishPassKeys, PASS_KEY_CHECKS } from './identity.js';
import { checkFieldCounts, type FieldCounts, isSquareBarcode } from './layout.js';
import {
  BEACON_SITES,
  checkBeacon,
  checkLocation,
  checkMaxDistance,
  checkNfc,
  checkNfcSharing,
  checkRelevantDate,
  LOCATION_SITES,
  NFC_SITES,
  RELEVANT_DATE_SITES,
} from './relevance.js';
import { checkStructure, POSTER_GENERIC, STYLE_SITES, STYLES } from './structure.js';
import { checkSchemeRequirements, checkStyleSchemes } from './style-schemes.js';
import { checkSemantics } from './semantics.js';
import { checkUpcomingEntry, UPCOMING_SITES } from './upcoming.js';
import { reportUnknownKey } from './unknown-key.js';
import { OPAQUE_OBJECT, type Sites } from './sites.js';
import { arrayCheck, type Check, checkDate, colorCheck, kindCheck } from './values.js';

export { PASS_LEVEL_KEYS } from './identity.js';

/** Options of {@link checkPassBody}. */
export interface PassBodyOptions {
  /**
   * Warn `hex-color` about `#rgb`/`#rrggbb` colors (default `false`): right
   * for a finished pass, noise for a template, whose colors `buildPass`
   * converts to `rgb(r, g, b)`.
   */
  readonly warnHexColors?: boolean;
}

const string = kindCheck('string');
const boolean = kindCheck('boolean');
const object = kindCheck('object');

// Every body key Wallet knows, with its check and what a placeholder may
// render to there for the check to find no error (see rules/sites.ts; keep
// the two in step). Style keys are handled apart.
const BODY: readonly (readonly [string, Check, Sites])[] = [
  ['barcode', checkSingleBarcode, BARCODE_SITES],
  ['barcodes', arrayCheck(checkListedBarcode), { each: BARCODE_SITES }],
  ['logoText', string, 'string'],
  ['foregroundColor', colorCheck(), 'color'],
  ['backgroundColor', colorCheck(), 'color'],
  ['labelColor', colorCheck(), 'color'],
  ['footerBackgroundColor', colorCheck(), 'color'],
  ['groupingIdentifier', string, 'string'],
  ['relevantDate', checkDate, 'date'],
  ['relevantDates', arrayCheck(checkRelevantDate), RELEVANT_DATE_SITES],
  ['expirationDate', checkDate, 'date'],
  ['voided', boolean, 'none'],
  ['sharingProhibited', boolean, 'none'],
  ['suppressStripShine', boolean, 'none'],
  ['suppressHeaderDarkening', boolean, 'none'],
  ['useAutomaticColors', boolean, 'none'],
  ['eventLogoText', string, 'string'],
  ['preferredStyleSchemes', checkStyleSchemes, { each: 'string' }],
  // iOS 27: up to two cards below the pass.
  ['featuredActions', checkFeaturedActions, FEATURED_ACTIONS_SITES],
  ['locations', arrayCheck(checkLocation), LOCATION_SITES],
  ['beacons', arrayCheck(checkBeacon), BEACON_SITES],
  ['maxDistance', checkMaxDistance, 'none'],
  ['nfc', checkNfc, NFC_SITES],
  // Its presence needs associatedStoreIdentifiers; its value is any string.
  ['appLaunchURL', string, 'string'],
  ['associatedStoreIdentifiers', arrayCheck(kindCheck('integer')), 'none'],
  // iOS 18: the apps of a poster event ticket's event guide.
  ['auxiliaryStoreIdentifiers', arrayCheck(kindCheck('integer')), 'none'],
  ['userInfo', object, OPAQUE_OBJECT],
  ['semantics', checkSemantics, OPAQUE_OBJECT],
  // iOS 26: the further events of a multi-event ticket.
  ['upcomingPassInformation', arrayCheck(checkUpcomingEntry), UPCOMING_SITES],
  // Links shown on iOS 18 poster event tickets (changeSeatURL on boarding passes too).
  ...[
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
    // iOS 26: the services of a semantic boarding pass.
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
  ].map((key) => [key, string, 'string'] as const),
  // Checked only in a complete pass (see checkPassRules); a body may not hold
  // them, and buildPass replaces them with the issuer's (checked apart).
  ...[...PASS_KEY_CHECKS].map(([key, check]) => [key, check, 'any'] as const),
];
const BODY_CHECKS: ReadonlyMap<string, Check> = new Map(BODY.map(([key, check]) => [key, check]));
const BODY_SITES: ReadonlyMap<string, Sites> = new Map(BODY.map(([key, , sites]) => [key, sites]));
const STYLE_SET: ReadonlySet<string> = new Set([...STYLES, POSTER_GENERIC]);
const KNOWN_KEYS: readonly string[] = [...BODY_CHECKS.keys(), ...STYLES, POSTER_GENERIC];

/**
 * What a placeholder may render to in a pass body buildPass renders for
 * {@link checkPassBody} to find no error there (see rules/sites.ts). Unknown
 * keys are only warned about, so anything goes under them.
 */
export const PASS_BODY_SITES: Sites = () => (key) => (STYLE_SET.has(key) ? STYLE_SITES : (BODY_SITES.get(key) ?? 'any'));

/**
 * Apple's rules on the visual part of a pass (style body, fields, barcodes,
 * colors, dates, locations, beacons, NFC, `appLaunchURL`, unknown keys …),
 * without the keys an issuer adds (see {@link checkPassRules}). A template reuses it
 * for its `description`.
 *
 * `path` is the JSON Pointer of `body` (`''` for a pass, `'/description'` for
 * a template). A string for which `isDynamic` is `true` holds placeholders:
 * every check that depends on it (its type too — a whole-value placeholder may
 * become a number or an array) waits until it is rendered; everything static
 * around it is still checked. Two identical key texts collide even when they
 * hold placeholders (they render identically). Hex colors are accepted
 * silently unless `options.warnHexColors`.
 *
 * @example
 * ```ts
 * checkPassBody({ generic: {}, backgroundColor: 'red' }, '', () => false);
 * // [{ severity: 'error', code: 'invalid-color', path: '/backgroundColor', … }]
 * ```
 */
export function checkPassBody(body: unknown, path: string, isDynamic: (text: string) => boolean, options?: PassBodyOptions): Issue[] {
  const context = createContext(path, isDynamic, options?.warnHexColors === true);
  checkBody(context, body);
  return context.issues;
}

/**
 * Every rule on a complete pass, in one walk: {@link checkPassBody} plus the
 * pass-level keys (the six required ones, `formatVersion` 1, identifiers,
 * serial number, token, https `webServiceURL` unless `allowHttp`, and that
 * the last two come together). Hex colors are warned about.
 *
 * @example
 * ```ts
 * checkPassRules({ generic: {} }, false).map((issue) => issue.path);
 * // ['/description', '/formatVersion', '/organizationName', …]
 * ```
 */
export function checkPassRules(pass: unknown, allowHttp: boolean): Issue[] {
  const context = createContext('', neverDynamic, true, { allowHttp, present: 0 });
  checkBody(context, pass);
  if (isDict(pass)) finishPassKeys(context);
  return context.issues;
}

const neverDynamic = (): boolean => false;

function checkBody(context: Context, body: unknown): void {
  if (isDynamic(context, body)) return;
  if (!isDict(body)) {
    const what = context.prefix === '' ? 'A pass' : 'A pass body';
    report(context, 'error', 'invalid-type', undefined, `${what} must be an object, not ${describe(body)}`);
    return;
  }
  let firstStyle: PassStyle | undefined;
  let groupable = false;
  let grouping = false;
  let launchUrl = false;
  let counts: FieldCounts | undefined;
  let posterCounts: FieldCounts | undefined;
  let schemes = false;
  const inherited = mayInherit(context, body);
  for (const key in body) {
    if (inherited && !Object.hasOwn(body, key)) continue;
    const value = body[key];
    if (value === undefined) continue;
    const check = BODY_CHECKS.get(key);
    if (check !== undefined) {
      check(context, value, key);
      if (key === 'groupingIdentifier') grouping = true;
      else if (key === 'appLaunchURL') launchUrl = true;
      else if (key === 'preferredStyleSchemes') schemes = true;
    } else if (key === POSTER_GENERIC) {
      // Wallet prefers it on iOS 27 and reads one of the five styles beside it on earlier systems.
      posterCounts = checkStructure(context, value, POSTER_GENERIC);
    } else if (STYLE_SET.has(key)) {
      const style = key as PassStyle;
      if (style === 'eventTicket' || style === 'boardingPass') groupable = true;
      if (firstStyle === undefined) {
        firstStyle = style;
        counts = checkStructure(context, value, style);
      } else {
        report(
          context,
          'error',
          'multiple-styles',
          key,
          `A pass has exactly one style; \`${key}\` comes after \`${firstStyle}\` (${context.prefix}/${firstStyle})`,
        );
        checkStructure(context, value, style);
      }
    } else {
      reportUnknownKey(context, key, KNOWN_KEYS, 'a pass');
    }
  }
  if (firstStyle === undefined && posterCounts === undefined) {
    report(context, 'error', 'missing-style', undefined, `A pass needs one style key: ${STYLES.join(', ')} (and may add ${POSTER_GENERIC})`);
  } else if (firstStyle === undefined) {
    report(
      context,
      'warning',
      'missing-fallback-style',
      POSTER_GENERIC,
      `\`${POSTER_GENERIC}\` needs iOS 27; give one of ${STYLES.join(', ')} beside it (e.g. \`generic\` with the same fields), or iOS 26 and earlier cannot add the pass`,
    );
  }
  if (grouping && !groupable) {
    const on = firstStyle === undefined ? 'a pass without a style' : `\`${firstStyle}\``;
    // Wallet groups only event tickets and boarding passes, and ignores the key elsewhere.
    report(
      context,
      'warning',
      'unexpected-grouping-identifier',
      'groupingIdentifier',
      `\`groupingIdentifier\` has an effect only on event tickets and boarding passes; Wallet ignores it on ${on}`,
    );
  }
  if (launchUrl) checkStoreIdentifiers(context, body);
  checkNfcSharing(context, body);
  const barcodes = Object.hasOwn(body, 'barcodes') ? body['barcodes'] : undefined;
  const barcode = Object.hasOwn(body, 'barcode') ? body['barcode'] : undefined;
  if (firstStyle !== undefined && counts !== undefined) {
    checkFieldCounts(context, firstStyle, counts, isSquareBarcode(context, barcodes, barcode));
  }
  if (posterCounts !== undefined) checkFieldCounts(context, POSTER_GENERIC, posterCounts, undefined);
  checkBarcodeFallback(context, barcodes, barcode);
  if (schemes) {
    const styles = new Set<StyleKey>();
    if (firstStyle !== undefined) styles.add(firstStyle);
    if (posterCounts !== undefined) styles.add(POSTER_GENERIC);
    checkSchemeRequirements(context, body, styles);
  }
}

function checkStoreIdentifiers(context: Context, body: Dict): void {
  const identifiers = Object.hasOwn(body, 'associatedStoreIdentifiers') ? body['associatedStoreIdentifiers'] : undefined;
  if (isDynamic(context, identifiers)) return;
  if (identifiers === undefined) {
    report(
      context,
      'warning',
      'missing-store-identifiers',
      'associatedStoreIdentifiers',
      '`appLaunchURL` needs `associatedStoreIdentifiers` (the App Store IDs of the app to launch); without them Wallet shows no app link',
    );
  } else if (Array.isArray(identifiers) && identifiers.length === 0) {
    report(
      context,
      'warning',
      'missing-store-identifiers',
      'associatedStoreIdentifiers',
      '`appLaunchURL` needs at least one entry in `associatedStoreIdentifiers`; without one Wallet shows no app link',
    );
  }
}
