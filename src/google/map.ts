import type { Pass, PassStructure } from '../types.js';
import { toHexColor } from './color.js';
import { GoogleWalletError } from './error.js';
import { checkIssuerId, classIdOf, objectIdOf } from './ids.js';
import { formatValue, type ValueFormat, valueFormat } from './format.js';
import { type LocalizedString, localized, type Strings, translationsOf } from './localize.js';
import { appendLosses, loss } from './loss.js';
import { mapBarcode } from './map-barcode.js';
import { checkRedemptionIssuers, mapLocations, mapNfc } from './map-extras.js';
import { type PlacedField, fieldLosses, formattedIn, labelOf, mapFields, placedFields } from './map-fields.js';
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
  if (pass === null || typeof pass !== 'object' || Array.isArray(pass))
    throw new GoogleWalletError('invalid-pass', 'A rendered pass.json (an object) is needed.');
  const present = (key: string): boolean =>
    Object.hasOwn(pass, key) && (pass as unknown as Record<string, unknown>)[key] !== undefined && (pass as unknown as Record<string, unknown>)[key] !== null;
  const styles = STYLES.filter(present);
  const poster = present('posterGeneric');
  // iOS 27's posterGeneric alone is a generic pass; beside a classic style, Google gets the classic style (what iOS 26 and earlier show).
  const style = styles[0] ?? (poster ? 'posterGeneric' : undefined);
  if (
    style === undefined ||
    typeof pass.serialNumber !== 'string' ||
    typeof pass.passTypeIdentifier !== 'string' ||
    typeof pass.organizationName !== 'string'
  ) {
    throw new GoogleWalletError(
      'invalid-pass',
      'A rendered pass.json is needed: a style body (one of the five styles or posterGeneric), serialNumber, passTypeIdentifier and organizationName (strings).',
    );
  }
  const format = valueFormat(options.locale, options.language, options.timeZone);
  const redemptionIssuers = checkRedemptionIssuers(options.redemptionIssuers);
  const body = pass[style] as PassStructure;
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
  const organization = pass.organizationName;

  const classId = classIdOf(options.issuerId, pass.passTypeIdentifier, options.classSuffix);
  const walletClass: Record<string, unknown> = { id: classId };
  const object: Record<string, unknown> = {
    id: objectIdOf(options.issuerId, pass.passTypeIdentifier, pass.serialNumber),
    classId,
    state: pass.voided === true ? 'INACTIVE' : 'ACTIVE',
  };
  // An empty logoText shows no title on the Apple pass; Google requires one, so the organization names the card.
  const brand = logoText !== undefined && logoText !== '' ? logoText : organization;

  let fields: PlacedField[] = placedFields(style, body);
  if (style !== 'posterGeneric') {
    // Only a poster shows footer fields; Wallet hides them on the five classic styles.
    for (const placed of fields.filter((entry) => entry.pointer.startsWith(`/${style}/footerFields/`))) {
      losses.push(loss('google-field-dropped', placed.pointer, `Wallet shows footer fields only on a posterGeneric pass: "${placed.field.key}" is left out.`));
    }
    fields = fields.filter((entry) => !entry.pointer.startsWith(`/${style}/footerFields/`));
  }
  if (poster && style !== 'posterGeneric') appendLosses(losses, posterLosses(pass, style, fields));

  // The Google type: Apple's, unless Google requires what the pass lacks — then a generic pass, which needs nothing the pass may lack.
  const images = mapImages(options.imageUrl);
  let type = typeOf(style, body);
  let semantic: SemanticParts | undefined;
  if (type === 'flight') {
    const parts = flightParts(pass);
    if (parts.missing.length === 0) semantic = parts;
    else {
      losses.push(
        loss(
          'google-type-changed',
          `/${style}/transitType`,
          `A Google flight requires the carrier, flight number, airports, scheduled departure, passenger and confirmation code: the pass lacks the semantic tag${parts.missing.length === 1 ? '' : 's'} ${parts.missing.join(', ')}, so Google Wallet gets a generic pass.`,
        ),
      );
      type = 'generic';
    }
  }
  if ((type === 'loyalty' || type === 'transit') && images.logo === undefined) {
    losses.push(
      loss(
        'google-type-changed',
        '',
        `A Google ${type} class requires ${type === 'loyalty' ? 'programLogo' : 'a logo'}: without a hosted logo.png (imageUrl) Google Wallet gets a generic pass.`,
      ),
    );
    type = 'generic';
  }
  // The first primary field names the pass on Google's card (generic header, event name, the offer) unless its value is empty: Google requires those texts.
  const first = fields.find((placed) => placed.pointer === `/${style}/primaryFields/0`);
  const primary = first !== undefined && formatValue(first.field, first.pointer, format).text !== '' ? first : undefined;
  const carried = new Set<string>();

  if (type === 'generic') {
    object['cardTitle'] = text(brand);
    carried.add(brand);
    if (primary !== undefined) {
      const value = fieldText(primary, format, language, strings, losses);
      object['header'] = value.localized;
      const label = labelOf(primary.field);
      if (label !== undefined) object['subheader'] = text(label);
      fields = fields.filter((placed) => placed !== primary);
    } else {
      const header = description !== undefined && description !== '' ? description : organization;
      object['header'] = text(header);
      carried.add(header);
    }
  } else {
    walletClass['issuerName'] = organization;
    carried.add(organization);
    if (translationsOf(organization, strings).length > 0) walletClass['localizedIssuerName'] = text(organization);
    walletClass['reviewStatus'] = 'UNDER_REVIEW';
  }

  switch (type) {
    case 'generic':
      if (images.logo !== undefined) object['logo'] = images.logo;
      break;
    case 'eventTicket': {
      // The event names the ticket: the semantic eventName (below), else the primary field (Apple's event ticket puts the event there).
      semantic = eventParts(pass, text);
      if (semantic.classFields['eventName'] === undefined) {
        const name = primary !== undefined ? formatValue(primary.field, primary.pointer, format).text : brand;
        walletClass['eventName'] = text(name);
        carried.add(name);
      }
      if (images.logo !== undefined) walletClass['logo'] = images.logo;
      break;
    }
    case 'loyalty':
      walletClass['programName'] = brand;
      walletClass['localizedProgramName'] = text(brand);
      carried.add(brand);
      walletClass['programLogo'] = images.logo;
      break;
    case 'offer': {
      // The offer itself is the title ("25% Off any cake"): the primary field, else the description.
      let title: string;
      if (primary !== undefined) {
        const value = fieldText(primary, format, language, strings, losses);
        const label = labelOf(primary.field);
        title = label === undefined ? value.text : `${value.text} ${label}`;
        fields = fields.filter((placed) => placed !== primary);
      } else title = description !== undefined && description !== '' ? description : brand;
      walletClass['title'] = title;
      walletClass['localizedTitle'] = text(title);
      walletClass['provider'] = brand;
      carried.add(title).add(brand);
      walletClass['redemptionChannel'] = 'BOTH';
      if (images.logo !== undefined) walletClass['titleImage'] = images.logo;
      break;
    }
    case 'flight': {
      const parts = semantic as SemanticParts;
      const header = parts.classFields['flightHeader'] as Record<string, unknown>;
      const carrier: Record<string, unknown> = { ...(header['carrier'] as object) };
      // logoText is the airline's name on Apple's boarding pass.
      if (logoText !== undefined && logoText !== '') {
        carrier['airlineName'] = text(logoText);
        carried.add(logoText);
      }
      if (images.logo !== undefined) carrier['airlineLogo'] = images.logo;
      parts.classFields['flightHeader'] = { ...header, carrier };
      break;
    }
    case 'transit':
      walletClass['transitType'] =
        typeof body.transitType === 'string' && Object.hasOwn(TRANSIT_TYPES, body.transitType) ? TRANSIT_TYPES[body.transitType] : 'OTHER';
      object['tripType'] = 'ONE_WAY';
      walletClass['logo'] = images.logo;
      // logoText names the operator on Apple's boarding pass.
      if (logoText !== undefined && logoText !== '') {
        walletClass['transitOperatorName'] = text(logoText);
        carried.add(logoText);
      }
      break;
  }

  const mapped = mapFields(fields, type === 'generic' ? 3 : 2, language, strings, format);
  appendLosses(losses, mapped.losses);
  if (mapped.textModules.length > 0) object['textModulesData'] = mapped.textModules;
  if (mapped.cardRows.length > 0) walletClass['classTemplateInfo'] = { cardTemplateOverride: { cardRowTemplateInfos: mapped.cardRows } };

  appendLosses(losses, images.losses);
  if (images.hero !== undefined) object['heroImage'] = images.hero;

  if (semantic !== undefined) {
    Object.assign(walletClass, semantic.classFields);
    Object.assign(object, semantic.objectFields);
    appendLosses(losses, semantic.losses);
  }
  if (logoText !== undefined && logoText !== '' && !carried.has(logoText)) {
    losses.push(
      loss(
        'google-key-dropped',
        '/logoText',
        `Google Wallet shows the issuer name (organizationName) where Apple shows logoText: "${logoText.slice(0, 60)}" is left out.`,
      ),
    );
  }
  if (!carried.has(organization) && organization !== '') {
    losses.push(
      loss(
        'google-key-dropped',
        '/organizationName',
        `A Google generic pass has no issuer name and its title shows logoText: organizationName "${organization.slice(0, 60)}" is left out.`,
      ),
    );
  }
  if (description !== undefined && description !== '' && !carried.has(description)) {
    losses.push(
      loss(
        'google-key-dropped',
        '/description',
        "Google Wallet has no place for the pass's description (the text VoiceOver reads on an iPhone): it is left out.",
      ),
    );
  }

  const barcode = mapBarcode(pass);
  appendLosses(losses, barcode.losses);
  if (barcode.barcode !== undefined) object['barcode'] = barcode.barcode;

  const background: unknown = pass.backgroundColor;
  if (background !== undefined) {
    const hex = typeof background === 'string' ? toHexColor(background) : undefined;
    // Loyalty and offer objects have no color of their own: Google colors them by their class.
    if (hex !== undefined) (type === 'loyalty' || type === 'offer' ? walletClass : object)['hexBackgroundColor'] = hex;
    else
      losses.push(
        loss(
          'google-color-dropped',
          '/backgroundColor',
          `Google Wallet reads #rrggbb colors; ${typeof background === 'string' ? JSON.stringify(background.slice(0, 60)) : `a ${typeof background}`} is left out.`,
        ),
      );
  }
  const grouping: unknown = pass.groupingIdentifier;
  if (typeof grouping === 'string') object['groupingInfo'] = { groupingId: grouping };
  else if (grouping !== undefined) losses.push(loss('google-key-dropped', '/groupingIdentifier', 'groupingIdentifier is not a string: it is left out.'));
  const expiration: unknown = pass.expirationDate;
  if (typeof expiration === 'string') object['validTimeInterval'] = { end: { date: expiration } };
  else if (expiration !== undefined) losses.push(loss('google-key-dropped', '/expirationDate', 'expirationDate is not a string: it is left out.'));

  const places = mapLocations(pass.locations);
  appendLosses(losses, places.losses);
  if (places.merchantLocations !== undefined) object['merchantLocations'] = places.merchantLocations;
  const smartTap = mapNfc(pass, redemptionIssuers);
  Object.assign(walletClass, smartTap.classFields);
  Object.assign(object, smartTap.objectFields);
  appendLosses(losses, smartTap.losses);

  appendLosses(losses, passLosses(pass, semantic?.used ?? new Set()));
  return { type, class: walletClass, object, losses };
}

/** A field's value as Google shows it (formatted, in each translated language too), its losses appended. */
function fieldText(
  placed: PlacedField,
  format: ValueFormat,
  language: string,
  strings: Strings | undefined,
  losses: GoogleLoss[],
): { text: string; localized: LocalizedString } {
  const value = formatValue(placed.field, placed.pointer, format);
  appendLosses(losses, value.losses);
  appendLosses(losses, fieldLosses(placed.field, placed.pointer));
  if (!value.formatted) return { text: value.text, localized: localized(value.text, language, strings) };
  const translated = formattedIn(placed.field, strings, format);
  return {
    text: value.text,
    localized: { defaultValue: { language, value: value.text }, ...(translated.length === 0 ? {} : { translatedValues: translated }) },
  };
}

/**
 * What a posterGeneric body beside a classic style loses: Google gets the
 * classic style (the one iOS 26 and earlier show), so the poster layout is
 * reported once, and each poster field whose key the classic style does not
 * hold — a field seen only on the poster — at its own pointer.
 */
function posterLosses(pass: Pass, style: string, classic: readonly PlacedField[]): GoogleLoss[] {
  const losses = [
    loss('google-key-dropped', '/posterGeneric', `Google Wallet has no poster layout: the ${style} style is used, the posterGeneric layout is left out.`),
  ];
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
    losses.push(
      loss(
        'google-field-dropped',
        placed.pointer,
        `"${placed.field.key}" is shown only on the poster (posterGeneric); the ${style} style Google gets has no such field.`,
      ),
    );
  }
  return losses;
}
