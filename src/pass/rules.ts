import type { Issue } from '../issues.js';
import type { PassStyle } from '../types.js';
import { checkListedBarcode, checkSingleBarcode } from './rules/barcode.js';
import { type Context, createContext, describe, type Dict, isDict, isDynamic, mayInherit, report } from './rules/context.js';
import { finishPassKeys, PASS_KEY_CHECKS } from './rules/identity.js';
import { checkBeacon, checkLocation, checkMaxDistance, checkNfc, checkRelevantDate } from './rules/relevance.js';
import { checkStructure, STYLES } from './rules/structure.js';
import { reportUnknownKey } from './rules/unknown-key.js';
import { arrayCheck, type Check, checkDate, colorCheck, kindCheck } from './rules/values.js';

export { PASS_LEVEL_KEYS } from './rules/identity.js';

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
  ['foregroundColor', colorCheck()],
  ['backgroundColor', colorCheck()],
  ['labelColor', colorCheck()],
  ['footerBackgroundColor', colorCheck()],
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
  // Checked only in a complete pass (see checkPassRules); a body may not hold them.
  ...PASS_KEY_CHECKS,
]);
const STYLE_SET: ReadonlySet<string> = new Set(STYLES);
const KNOWN_KEYS: readonly string[] = [...BODY_CHECKS.keys(), ...STYLES];

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
    } else if (STYLE_SET.has(key)) {
      const style = key as PassStyle;
      if (style === 'eventTicket' || style === 'boardingPass') groupable = true;
      if (firstStyle === undefined) {
        firstStyle = style;
      } else {
        report(context, 'error', 'multiple-styles', key, `A pass has exactly one style; \`${key}\` comes after \`${firstStyle}\` (${context.prefix}/${firstStyle})`);
      }
      checkStructure(context, value, style);
    } else {
      reportUnknownKey(context, key, KNOWN_KEYS, 'a pass');
    }
  }
  if (firstStyle === undefined) {
    report(context, 'error', 'missing-style', undefined, `A pass needs one style key: ${STYLES.join(', ')}`);
  }
  if (grouping && !groupable) {
    const on = firstStyle === undefined ? 'a pass without a style' : `\`${firstStyle}\``;
    report(context, 'error', 'unexpected-grouping-identifier', 'groupingIdentifier', `\`groupingIdentifier\` is allowed only on event tickets and boarding passes, not on ${on}`);
  }
  if (launchUrl) checkStoreIdentifiers(context, body);
}

function checkStoreIdentifiers(context: Context, body: Dict): void {
  const identifiers = Object.hasOwn(body, 'associatedStoreIdentifiers') ? body['associatedStoreIdentifiers'] : undefined;
  if (isDynamic(context, identifiers)) return;
  if (identifiers === undefined) {
    report(context, 'error', 'missing-store-identifiers', 'associatedStoreIdentifiers', '`appLaunchURL` needs `associatedStoreIdentifiers` (the App Store IDs of the app to launch)');
  } else if (Array.isArray(identifiers) && identifiers.length === 0) {
    report(context, 'error', 'missing-store-identifiers', 'associatedStoreIdentifiers', '`appLaunchURL` needs at least one entry in `associatedStoreIdentifiers`');
  }
}
