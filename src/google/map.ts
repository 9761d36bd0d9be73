import type { Pass, PassStructure } from '../types.js';
import { toHexColor } from './color.js';
import { GoogleWalletError } from './error.js';
import { checkIssuerId, classIdOf, objectIdOf } from './ids.js';
import { localized, translationsOf } from './localize.js';
import { appendLosses, loss } from './loss.js';
import { mapBarcode } from './map-barcode.js';
import { type PlacedField, fieldLosses, labelOf, mapFields, placedFields } from './map-fields.js';
import { eventParts } from './map-event.js';
import { flightParts, type SemanticParts } from './map-flight.js';
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

/** The Google type of an Apple style: storeCard → loyalty, coupon → offer, air boarding pass → flight, other boarding passes → transit, posterGeneric alone → generic. */
function typeOf(style: (typeof STYLES)[number] | 'posterGeneric', body: PassStructure): GoogleWalletType {
  switch (style) {
    case 'posterGeneric':
      return 'generic';
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
  if (pass === null || typeof pass !== 'object' || Array.isArray(pass)) throw new GoogleWalletError('invalid-pass', 'A rendered pass.json (an object) is needed.');
  const present = (key: string): boolean => Object.hasOwn(pass, key) && (pass as unknown as Record<string, unknown>)[key] !== undefined && (pass as unknown as Record<string, unknown>)[key] !== null;
  const styles = STYLES.filter(present);
  const poster = present('posterGeneric');
  // iOS 27's posterGeneric alone is a generic pass; beside a classic style, Google gets the classic style (what iOS 26 and earlier show).
  const style = styles[0] ?? (poster ? 'posterGeneric' : undefined);
  if (style === undefined || typeof pass.serialNumber !== 'string' || typeof pass.passTypeIdentifier !== 'string' || typeof pass.organizationName !== 'string') {
    throw new GoogleWalletError('invalid-pass', 'A rendered pass.json is needed: a style body (one of the five styles or posterGeneric), serialNumber, passTypeIdentifier and organizationName (strings).');
  }
  const body = pass[style] as PassStructure;
  const type = typeOf(style, body);
  const language = options.language ?? 'en';
  const strings = options.strings;
  const text = (value: string) => localized(value, language, strings);
  const losses: GoogleLoss[] = [];
  for (const other of styles.slice(1)) losses.push(loss('google-key-dropped', `/${other}`, `A pass has one style; ${other} is left out (${style} is used).`));
  const optionalText = (key: 'logoText' | 'description'): string | undefined => {
    const value: unknown = pass[key];
    if (value === undefined || typeof value === 'string') return value;
    losses.push(loss('google-key-dropped', `/${key}`, `${key} is not a string: it is left out.`));
    return undefined;
  };
  const logoText = optionalText('logoText');
  const description = optionalText('description');

  const classId = classIdOf(options.issuerId, pass.passTypeIdentifier, options.classSuffix);
  const walletClass: Record<string, unknown> = { id: classId };
  const object: Record<string, unknown> = { id: objectIdOf(options.issuerId, pass.passTypeIdentifier, pass.serialNumber), classId, state: pass.voided === true ? 'INACTIVE' : 'ACTIVE' };
  // An empty logoText shows no title on the Apple pass; Google requires one, so the organization names the card.
  const title = logoText !== undefined && logoText !== '' ? logoText : pass.organizationName;

  // Generic passes show the first primary field as the header; every other type keeps all fields as text modules.
  let fields: PlacedField[] = placedFields(style, body);
  if (style !== 'posterGeneric') {
    // Only a poster shows footer fields; Wallet hides them on the five classic styles.
    for (const placed of fields.filter((entry) => entry.pointer.startsWith(`/${style}/footerFields/`))) {
      losses.push(loss('google-field-dropped', placed.pointer, `Wallet shows footer fields only on a posterGeneric pass: "${placed.field.key}" is left out.`));
    }
    fields = fields.filter((entry) => !entry.pointer.startsWith(`/${style}/footerFields/`));
  }
  if (poster && style !== 'posterGeneric') appendLosses(losses, posterLosses(pass, style, fields));
  if (type === 'generic') {
    object['cardTitle'] = text(title);
    const headline = fields.find((placed) => placed.pointer === `/${style}/primaryFields/0`);
    if (headline !== undefined) {
      object['header'] = text(String(headline.field.value));
      const label = labelOf(headline.field);
      if (label !== undefined) object['subheader'] = text(label);
      fields = fields.filter((placed) => placed !== headline);
      appendLosses(losses, fieldLosses(headline.field, headline.pointer));
    } else {
      object['header'] = text(description !== undefined && description !== '' ? description : pass.organizationName);
    }
  } else {
    walletClass['issuerName'] = pass.organizationName;
    if (translationsOf(pass.organizationName, strings).length > 0) walletClass['localizedIssuerName'] = text(pass.organizationName);
    walletClass['reviewStatus'] = 'UNDER_REVIEW';
  }

  const mapped = mapFields(fields, type === 'generic' ? 3 : 2, language, strings);
  appendLosses(losses, mapped.losses);
  if (mapped.textModules.length > 0) object['textModulesData'] = mapped.textModules;
  if (mapped.cardRows.length > 0) walletClass['classTemplateInfo'] = { cardTemplateOverride: { cardRowTemplateInfos: mapped.cardRows } };

  const images = mapImages(options.imageUrl);
  appendLosses(losses, images.losses);
  if (images.hero !== undefined) object['heroImage'] = images.hero;

  let semantic: SemanticParts | undefined;
  switch (type) {
    case 'generic':
      if (images.logo !== undefined) object['logo'] = images.logo;
      break;
    case 'eventTicket':
      walletClass['eventName'] = text(title);
      semantic = eventParts(pass, text);
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
      semantic = flightParts(pass);
      if (images.logo !== undefined) {
        const header = (semantic.classFields['flightHeader'] ?? {}) as Record<string, unknown>;
        semantic.classFields['flightHeader'] = { ...header, carrier: { ...((header['carrier'] ?? {}) as object), airlineLogo: images.logo } };
      }
      break;
    }
    case 'transit':
      walletClass['transitType'] = typeof body.transitType === 'string' && Object.hasOwn(TRANSIT_TYPES, body.transitType) ? TRANSIT_TYPES[body.transitType] : 'OTHER';
      object['tripType'] = 'ONE_WAY';
      if (images.logo !== undefined) walletClass['logo'] = images.logo;
      break;
  }

  if (semantic !== undefined) {
    Object.assign(walletClass, semantic.classFields);
    Object.assign(object, semantic.objectFields);
    appendLosses(losses, semantic.losses);
  }

  const barcode = mapBarcode(pass);
  appendLosses(losses, barcode.losses);
  if (barcode.barcode !== undefined) object['barcode'] = barcode.barcode;

  const background: unknown = pass.backgroundColor;
  if (background !== undefined) {
    const hex = typeof background === 'string' ? toHexColor(background) : undefined;
    if (hex !== undefined) object['hexBackgroundColor'] = hex;
    else losses.push(loss('google-color-dropped', '/backgroundColor', `Google Wallet reads #rrggbb colors; ${typeof background === 'string' ? JSON.stringify(background.slice(0, 60)) : `a ${typeof background}`} is left out.`));
  }
  const grouping: unknown = pass.groupingIdentifier;
  if (typeof grouping === 'string') object['groupingInfo'] = { groupingId: grouping };
  else if (grouping !== undefined) losses.push(loss('google-key-dropped', '/groupingIdentifier', 'groupingIdentifier is not a string: it is left out.'));
  const expiration: unknown = pass.expirationDate;
  if (typeof expiration === 'string') object['validTimeInterval'] = { end: { date: expiration } };
  else if (expiration !== undefined) losses.push(loss('google-key-dropped', '/expirationDate', 'expirationDate is not a string: it is left out.'));

  appendLosses(losses, passLosses(pass, semantic?.used ?? new Set()));
  return { type, class: walletClass, object, losses };
}

/**
 * What a posterGeneric body beside a classic style loses: Google gets the
 * classic style (the one iOS 26 and earlier show), so the poster layout is
 * reported once, and each poster field whose key the classic style does not
 * hold — a field seen only on the poster — at its own pointer.
 */
function posterLosses(pass: Pass, style: string, classic: readonly PlacedField[]): GoogleLoss[] {
  const losses = [loss('google-key-dropped', '/posterGeneric', `Google Wallet has no poster layout: the ${style} style is used, the posterGeneric layout is left out.`)];
  let posterFields: PlacedField[];
  try {
    posterFields = placedFields('posterGeneric', pass.posterGeneric as PassStructure);
  } catch {
    // A malformed poster field: the poster is already reported as a whole.
    return losses;
  }
  const keys = new Set(classic.map((placed) => placed.field.key));
  for (const placed of posterFields) {
    if (keys.has(placed.field.key)) continue;
    losses.push(loss('google-field-dropped', placed.pointer, `"${placed.field.key}" is shown only on the poster (posterGeneric); the ${style} style Google gets has no such field.`));
  }
  return losses;
}
