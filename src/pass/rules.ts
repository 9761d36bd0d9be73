import { joinPointer, type Issue } from '../issues.js';
import type { PassStyle } from '../types.js';
import { checkListedBarcode, checkSingleBarcode } from './rules/barcode.js';
import { type Context, describe, isDict, isDynamic, report } from './rules/context.js';
import { PASS_LEVEL_KEYS } from './rules/identity.js';
import { checkBeacon, checkLocation, checkMaxDistance, checkNfc, checkRelevantDate } from './rules/relevance.js';
import { checkStructure, STYLES } from './rules/structure.js';
import { reportUnknownKey } from './rules/unknown-key.js';
import { arrayCheck, type Check, checkColor, checkDate, kindCheck } from './rules/values.js';

export { checkPassKeys, PASS_LEVEL_KEYS } from './rules/identity.js';

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

// Every body key Wallet knows, with its check. Style keys are handled apart.
const BODY_CHECKS: ReadonlyMap<string, Check> = new Map<string, Check>([
  ['barcode', checkSingleBarcode],
  ['barcodes', arrayCheck(checkListedBarcode)],
  ['logoText', string],
  ['foregroundColor', checkColor],
  ['backgroundColor', checkColor],
  ['labelColor', checkColor],
  ['footerBackgroundColor', checkColor],
  ['groupingIdentifier', string],
  ['relevantDate', checkDate],
  ['relevantDates', arrayCheck(checkRelevantDate)],
  ['expirationDate', checkDate],
  ['voided', boolean],
  ['sharingProhibited', boolean],
  ['suppressStripShine', boolean],
  ['suppressHeaderDarkening', boolean],
  ['useAutomaticColors', boolean],
  ['eventLogoText', string],
  ['preferredStyleSchemes', arrayCheck(string)],
  ['locations', arrayCheck(checkLocation)],
  ['beacons', arrayCheck(checkBeacon)],
  ['maxDistance', checkMaxDistance],
  ['nfc', checkNfc],
  ['appLaunchURL', string],
  ['associatedStoreIdentifiers', arrayCheck(kindCheck('integer'))],
  ['userInfo', object],
  ['semantics', object],
  // Links shown on iOS 18 event tickets.
  ['accessibilityURL', string],
  ['addOnURL', string],
  ['bagPolicyURL', string],
  ['changeSeatURL', string],
  ['contactVenueEmail', string],
  ['contactVenuePhoneNumber', string],
  ['contactVenueWebsite', string],
  ['directionsInformationURL', string],
  ['merchandiseURL', string],
  ['orderFoodURL', string],
  ['parkingInformationURL', string],
  ['purchaseParkingURL', string],
  ['sellURL', string],
  ['transferURL', string],
  ['transitInformationURL', string],
]);
const STYLE_SET: ReadonlySet<string> = new Set(STYLES);
const PASS_LEVEL_SET: ReadonlySet<string> = new Set(PASS_LEVEL_KEYS);
const KNOWN_KEYS: readonly string[] = [...BODY_CHECKS.keys(), ...STYLES, ...PASS_LEVEL_KEYS];

/**
 * Apple's rules on the visual part of a pass (style body, fields, barcodes,
 * colors, dates, locations, beacons, NFC, `appLaunchURL`, unknown keys …),
 * without the keys an issuer adds (see `checkPassKeys`). A template reuses it
 * for its `description`.
 *
 * `path` is the JSON Pointer of `body` (`''` for a pass, `'/description'` for
 * a template). A string for which `isDynamic` is `true` holds placeholders:
 * every check that depends on it (its type too — a whole-value placeholder may
 * become a number or an array) waits until it is rendered; everything static
 * around it is still checked. Hex colors are accepted silently unless
 * `options.warnHexColors`.
 *
 * @example
 * ```ts
 * checkPassBody({ generic: {}, backgroundColor: 'red' }, '', () => false);
 * // [{ severity: 'error', code: 'invalid-color', path: '/backgroundColor', … }]
 * ```
 */
export function checkPassBody(body: unknown, path: string, isDynamic: (text: string) => boolean, options?: PassBodyOptions): Issue[] {
  const context: Context = { issues: [], isDynamic, warnHexColors: options?.warnHexColors === true };
  checkBody(context, body, path);
  return context.issues;
}

function checkBody(context: Context, body: unknown, path: string): void {
  if (isDynamic(context, body)) return;
  if (!isDict(body)) {
    const what = path === '' ? 'A pass' : 'A pass body';
    report(context, 'error', 'invalid-type', path, `${what} must be an object, not ${describe(body)}`);
    return;
  }
  let firstStyle: PassStyle | undefined;
  let groupable = false;
  let grouping = false;
  let launchUrl = false;
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (value === undefined) continue;
    const check = BODY_CHECKS.get(key);
    if (check !== undefined) {
      check(context, value, `${path}/${key}`, key);
      if (key === 'groupingIdentifier') grouping = true;
      else if (key === 'appLaunchURL') launchUrl = true;
    } else if (STYLE_SET.has(key)) {
      const style = key as PassStyle;
      if (style === 'eventTicket' || style === 'boardingPass') groupable = true;
      if (firstStyle === undefined) {
        firstStyle = style;
      } else {
        report(context, 'error', 'multiple-styles', `${path}/${key}`, `A pass has exactly one style; \`${key}\` comes after \`${firstStyle}\` (${path}/${firstStyle})`);
      }
      checkStructure(context, value, `${path}/${key}`, style);
    } else if (!PASS_LEVEL_SET.has(key)) {
      reportUnknownKey(context, key, path, KNOWN_KEYS, 'a pass');
    }
  }
  if (firstStyle === undefined) {
    report(context, 'error', 'missing-style', path, `A pass needs one style key: ${STYLES.join(', ')}`);
  }
  if (grouping && !groupable) {
    const on = firstStyle === undefined ? 'a pass without a style' : `\`${firstStyle}\``;
    report(context, 'error', 'unexpected-grouping-identifier', `${path}/groupingIdentifier`, `\`groupingIdentifier\` is allowed only on event tickets and boarding passes, not on ${on}`);
  }
  if (launchUrl) checkStoreIdentifiers(context, body, path);
}

function checkStoreIdentifiers(context: Context, body: { readonly [key: string]: unknown }, path: string): void {
  const identifiers = Object.hasOwn(body, 'associatedStoreIdentifiers') ? body['associatedStoreIdentifiers'] : undefined;
  if (isDynamic(context, identifiers)) return;
  if (identifiers === undefined) {
    report(context, 'error', 'missing-store-identifiers', joinPointer(path, 'associatedStoreIdentifiers'), '`appLaunchURL` needs `associatedStoreIdentifiers` (the App Store IDs of the app to launch)');
  } else if (Array.isArray(identifiers) && identifiers.length === 0) {
    report(context, 'error', 'missing-store-identifiers', joinPointer(path, 'associatedStoreIdentifiers'), '`appLaunchURL` needs at least one entry in `associatedStoreIdentifiers`');
  }
}
