import type { Pass, PassStructure } from '../types.js';
import { toHexColor } from './color.js';
import { GoogleWalletError } from './error.js';
import { checkIssuerId, classIdOf, objectIdOf } from './ids.js';
import { localized } from './localize.js';
import { loss } from './loss.js';
import { mapBarcode } from './map-barcode.js';
import { type PlacedField, fieldLosses, mapFields, placedFields } from './map-fields.js';
import { flightParts } from './map-flight.js';
import { mapImages } from './map-images.js';
import { passLosses } from './map-pass-losses.js';
import type { GoogleLoss, GoogleMapOptions, GoogleWalletPass, GoogleWalletType } from './types.js';

const STYLES = ['boardingPass', 'coupon', 'eventTicket', 'generic', 'storeCard'] as const;

const TRANSIT_TYPES: Readonly<Record<string, string>> = {
  PKTransitTypeTrain: 'RAIL',
  PKTransitTypeBus: 'BUS',
  PKTransitTypeBoat: 'FERRY',
  PKTransitTypeGeneric: 'OTHER',
};

/** The Google type of an Apple style: storeCard → loyalty, coupon → offer, air boarding pass → flight, other boarding passes → transit. */
function typeOf(style: (typeof STYLES)[number], body: PassStructure): GoogleWalletType {
  switch (style) {
    case 'storeCard':
      return 'loyalty';
    case 'coupon':
      return 'offer';
    case 'boardingPass':
      return body.transitType === 'PKTransitTypeAir' ? 'flight' : 'transit';
    default:
      return style;
  }
}

/**
 * Maps a rendered pass.json to the Google Wallet class and object of the
 * matching type, with a loss report: one located warning for every part of
 * the pass that did not carry over, or carried over degraded.
 *
 * The class holds what a template shares (names, logo, the card layout), the
 * object what one pass holds (fields as text modules, barcode, colors, state).
 * Ids are `<issuerId>.<suffix>`, the same for the same pass every time.
 *
 * @example
 * ```ts
 * const { type, class: walletClass, object, losses } = toGoogleWallet(pass, {
 *   issuerId: '3388000000012345678',
 *   imageUrl: (path) => `https://passes.example.com/images/${path}`,
 * });
 * for (const loss of losses) console.warn(loss.path, loss.message);
 * ```
 */
export function toGoogleWallet(pass: Pass, options: GoogleMapOptions): GoogleWalletPass {
  checkIssuerId(options.issuerId);
  const styles = STYLES.filter((style) => pass[style] !== undefined && pass[style] !== null);
  const style = styles[0];
  if (style === undefined || typeof pass.serialNumber !== 'string' || typeof pass.passTypeIdentifier !== 'string' || typeof pass.organizationName !== 'string') {
    throw new GoogleWalletError('invalid-pass', 'A rendered pass.json is needed: a style body, serialNumber, passTypeIdentifier and organizationName.');
  }
  const body = pass[style] as PassStructure;
  const type = typeOf(style, body);
  const language = options.language ?? 'en';
  const strings = options.strings;
  const text = (value: string) => localized(value, language, strings);
  const losses: GoogleLoss[] = [];
  for (const other of styles.slice(1)) losses.push(loss('google-key-dropped', `/${other}`, `A pass has one style; ${other} is left out (${style} is used).`));

  const classId = classIdOf(options.issuerId, pass.passTypeIdentifier, options.classSuffix);
  const walletClass: Record<string, unknown> = { id: classId };
  const object: Record<string, unknown> = { id: objectIdOf(options.issuerId, pass.passTypeIdentifier, pass.serialNumber), classId, state: pass.voided === true ? 'INACTIVE' : 'ACTIVE' };
  const title = pass.logoText ?? pass.organizationName;

  // Generic passes show the first primary field as the header; every other type keeps all fields as text modules.
  let fields: PlacedField[] = placedFields(style, body);
  if (type === 'generic') {
    object['cardTitle'] = text(title);
    const headline = fields.find((placed) => placed.pointer === `/${style}/primaryFields/0`);
    if (headline !== undefined) {
      object['header'] = text(String(headline.field.value));
      if (headline.field.label !== undefined && headline.field.label !== '') object['subheader'] = text(headline.field.label);
      fields = fields.filter((placed) => placed !== headline);
      losses.push(...fieldLosses(headline.field, headline.pointer));
    } else {
      object['header'] = text(pass.description !== '' ? pass.description : pass.organizationName);
    }
  } else {
    walletClass['issuerName'] = pass.organizationName;
    walletClass['reviewStatus'] = 'UNDER_REVIEW';
  }

  const mapped = mapFields(fields, type === 'generic' ? 3 : 2, language, strings);
  losses.push(...mapped.losses);
  if (mapped.textModules.length > 0) object['textModulesData'] = mapped.textModules;
  if (mapped.cardRows.length > 0) walletClass['classTemplateInfo'] = { cardTemplateOverride: { cardRowTemplateInfos: mapped.cardRows } };

  const images = mapImages(options.imageUrl);
  losses.push(...images.losses);
  if (images.hero !== undefined) object['heroImage'] = images.hero;

  let usedSemantics: ReadonlySet<string> = new Set();
  switch (type) {
    case 'generic':
      if (images.logo !== undefined) object['logo'] = images.logo;
      break;
    case 'eventTicket':
      walletClass['eventName'] = text(title);
      if (images.logo !== undefined) walletClass['logo'] = images.logo;
      break;
    case 'loyalty':
      walletClass['programName'] = title;
      walletClass['localizedProgramName'] = text(title);
      if (images.logo !== undefined) walletClass['programLogo'] = images.logo;
      break;
    case 'offer':
      walletClass['title'] = title;
      walletClass['localizedTitle'] = text(title);
      walletClass['provider'] = pass.organizationName;
      walletClass['redemptionChannel'] = 'BOTH';
      if (images.logo !== undefined) walletClass['titleImage'] = images.logo;
      break;
    case 'flight': {
      const parts = flightParts(pass);
      usedSemantics = parts.used;
      Object.assign(walletClass, parts.classFields);
      Object.assign(object, parts.objectFields);
      if (images.logo !== undefined) {
        const header = (walletClass['flightHeader'] ?? {}) as Record<string, unknown>;
        walletClass['flightHeader'] = { ...header, carrier: { ...((header['carrier'] ?? {}) as object), airlineLogo: images.logo } };
      }
      break;
    }
    case 'transit':
      walletClass['transitType'] = TRANSIT_TYPES[String(body.transitType)] ?? 'OTHER';
      object['tripType'] = 'ONE_WAY';
      if (images.logo !== undefined) walletClass['logo'] = images.logo;
      break;
  }

  const barcode = mapBarcode(pass);
  losses.push(...barcode.losses);
  if (barcode.barcode !== undefined) object['barcode'] = barcode.barcode;

  if (pass.backgroundColor !== undefined) {
    const hex = toHexColor(pass.backgroundColor);
    if (hex !== undefined) object['hexBackgroundColor'] = hex;
    else losses.push(loss('google-color-dropped', '/backgroundColor', `Google Wallet reads #rrggbb colors; ${JSON.stringify(pass.backgroundColor)} is left out.`));
  }
  if (pass.groupingIdentifier !== undefined) object['groupingInfo'] = { groupingId: pass.groupingIdentifier };
  if (pass.expirationDate !== undefined) object['validTimeInterval'] = { end: { date: pass.expirationDate } };

  losses.push(...passLosses(pass, usedSemantics));
  return { type, class: walletClass, object, losses };
}
