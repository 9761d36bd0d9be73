/** A JSON value as `JSON.parse` returns it. */
export type JsonValue = string | number | boolean | null | JsonArray | JsonObject;
/** A JSON array. */
export type JsonArray = readonly JsonValue[];
/** A JSON object. */
export type JsonObject = { readonly [key: string]: JsonValue };

/**
 * Barcode symbologies Wallet draws. `PKBarcodeFormatCode128` only inside
 * `barcodes`. The last four are iOS 27's: earlier systems show no barcode for
 * them, so put one of the first four after them in `barcodes`.
 */
export type BarcodeFormat =
  | 'PKBarcodeFormatQR'
  | 'PKBarcodeFormatPDF417'
  | 'PKBarcodeFormatAztec'
  | 'PKBarcodeFormatCode128'
  | 'PKBarcodeFormatCode39'
  | 'PKBarcodeFormatCodabar'
  | 'PKBarcodeFormatEAN13'
  | 'PKBarcodeFormatI2of5';

/** Alignment of a field's label and value. Not allowed on primary and back fields. */
export type TextAlignment = 'PKTextAlignmentLeft' | 'PKTextAlignmentCenter' | 'PKTextAlignmentRight' | 'PKTextAlignmentNatural';

/** How a date (`dateStyle`) or time (`timeStyle`) field value is displayed. */
export type DateStyle = 'PKDateStyleNone' | 'PKDateStyleShort' | 'PKDateStyleMedium' | 'PKDateStyleLong' | 'PKDateStyleFull';

/** How a number field value is displayed. */
export type NumberStyle = 'PKNumberStyleDecimal' | 'PKNumberStylePercent' | 'PKNumberStyleScientific' | 'PKNumberStyleSpellOut';

/** Kind of transport of a boarding pass. */
export type TransitType = 'PKTransitTypeAir' | 'PKTransitTypeBoat' | 'PKTransitTypeBus' | 'PKTransitTypeGeneric' | 'PKTransitTypeTrain';

/** What Wallet turns into links on back fields. */
export type DataDetectorType = 'PKDataDetectorTypePhoneNumber' | 'PKDataDetectorTypeLink' | 'PKDataDetectorTypeAddress' | 'PKDataDetectorTypeCalendarEvent';

/** The five pass styles; a pass holds exactly one of them (and may add `posterGeneric`). */
export type PassStyle = 'boardingPass' | 'coupon' | 'eventTicket' | 'generic' | 'storeCard';

/**
 * Every style key of a pass.json: the five styles and iOS 27's
 * `posterGeneric`, which Wallet prefers when present and which comes with one
 * of the five for earlier systems.
 *
 * @example
 * ```ts
 * const styles: StyleKey[] = ['posterGeneric', 'generic'];
 * ```
 */
export type StyleKey = PassStyle | 'posterGeneric';

/**
 * The schemes of `preferredStyleSchemes`, in order of preference: iOS 18's
 * poster event ticket (and its fallback), iOS 26's semantic boarding pass.
 */
export type StyleScheme = 'posterEventTicket' | 'eventTicket' | 'semanticBoardingPass' | 'boardingPass';

/** The kinds of Featured Action (iOS 27), Wallet's cards below the pass. */
export type FeaturedActionType =
  | 'viewSchedule'
  | 'watchTrailer'
  | 'listenToMusic'
  | 'call'
  | 'place'
  | 'addToBalance'
  | 'order'
  | 'shop'
  | 'membershipBenefits'
  | 'bookAppointment'
  | 'bookCar'
  | 'bookFlight'
  | 'bookStay'
  | 'viewOffersRewards';

/**
 * An element of `featuredActions` (iOS 27): a card below the pass that opens `url`.
 *
 * @example
 * ```ts
 * const action: FeaturedAction = { identifier: 'benefits', type: 'membershipBenefits', url: 'https://example.com/benefits' };
 * ```
 */
export interface FeaturedAction {
  /** Unique among the pass's actions. */
  identifier: string;
  type: FeaturedActionType;
  url: string;
}

/**
 * One field shown on the pass (an element of `primaryFields`, `backFields` …).
 *
 * @example
 * ```ts
 * const seat: Field = { key: 'seat', label: 'Seat', value: '12B', textAlignment: 'PKTextAlignmentRight' };
 * ```
 */
export interface Field {
  /** Unique across the whole pass (all five field arrays). */
  key: string;
  /** A string, a number, or an ISO 8601 date string. */
  value: string | number;
  label?: string;
  /** HTML; Wallet supports only `<a href>`. */
  attributedValue?: string | number;
  /** Shown in the update notification; must contain `%@`. */
  changeMessage?: string;
  textAlignment?: TextAlignment;
  dateStyle?: DateStyle;
  timeStyle?: DateStyle;
  ignoresTimeZone?: boolean;
  isRelative?: boolean;
  numberStyle?: NumberStyle;
  /** ISO 4217 code; the value must be a number. */
  currencyCode?: string;
  dataDetectorTypes?: DataDetectorType[];
  semantics?: { [key: string]: unknown };
  row?: 0 | 1;
}

/**
 * A style body: `generic`, `eventTicket`, `coupon`, `storeCard` or `boardingPass`.
 *
 * @example
 * ```ts
 * const generic: PassStructure = { primaryFields: [{ key: 'event', value: 'Concert' }] };
 * ```
 */
export interface PassStructure {
  headerFields?: Field[];
  primaryFields?: Field[];
  secondaryFields?: Field[];
  auxiliaryFields?: Field[];
  backFields?: Field[];
  /** iOS 18: the Additional Info section below the pass. */
  additionalInfoFields?: Field[];
  /** iOS 27 `posterGeneric`: the footer of the poster (Wallet shows the first). */
  footerFields?: Field[];
  /** Required in `boardingPass`, not allowed elsewhere. */
  transitType?: TransitType;
}

/**
 * A barcode (`barcode`, or an element of `barcodes`).
 *
 * @example
 * ```ts
 * const barcode: Barcode = { message: 'ABC123', format: 'PKBarcodeFormatQR', messageEncoding: 'iso-8859-1' };
 * ```
 */
export interface Barcode {
  message: string;
  format: BarcodeFormat;
  /** An IANA charset name, typically `iso-8859-1`. */
  messageEncoding: string;
  altText?: string;
}

/** A place near which the pass is relevant. */
export interface PassLocation {
  latitude: number;
  longitude: number;
  altitude?: number;
  relevantText?: string;
}

/** An iBeacon near which the pass is relevant. */
export interface PassBeacon {
  proximityUUID: string;
  major?: number;
  minor?: number;
  relevantText?: string;
}

/** NFC payload of a pass (Value Added Services). */
export interface PassNfc {
  /** At most 64 bytes. */
  message: string;
  encryptionPublicKey?: string;
  requiresAuthentication?: boolean;
}

/**
 * The visual part of a pass: what a template's `description` holds, without
 * the identifiers an issuer adds.
 *
 * @example
 * ```ts
 * const body: PassBody = {
 *   logoText: 'Concert',
 *   backgroundColor: 'rgb(60, 65, 76)',
 *   generic: { primaryFields: [{ key: 'event', value: 'Concert' }] },
 * };
 * ```
 */
export interface PassBody {
  /** Deprecated since iOS 9 but still read; prefer `barcodes`. */
  barcode?: Barcode;
  barcodes?: Barcode[];
  logoText?: string;
  /** `rgb(r, g, b)`; `#rrggbb` is read too. */
  foregroundColor?: string;
  backgroundColor?: string;
  labelColor?: string;
  generic?: PassStructure;
  eventTicket?: PassStructure;
  coupon?: PassStructure;
  storeCard?: PassStructure;
  boardingPass?: PassStructure;
  /** iOS 27: the poster layout Wallet prefers; give one of the five styles too, for iOS 26 and earlier. */
  posterGeneric?: PassStructure;
  /** iOS 27: at most two cards below the pass, in priority order. */
  featuredActions?: FeaturedAction[];
  /** Only for `eventTicket` and `boardingPass`. */
  groupingIdentifier?: string;
  /** W3C date with a time zone, e.g. `2026-05-07T10:30-05:00`. */
  relevantDate?: string;
  expirationDate?: string;
  voided?: boolean;
  sharingProhibited?: boolean;
  suppressStripShine?: boolean;
  locations?: PassLocation[];
  beacons?: PassBeacon[];
  maxDistance?: number;
  nfc?: PassNfc;
  appLaunchURL?: string;
  associatedStoreIdentifiers?: number[];
  userInfo?: { [key: string]: unknown };
  semantics?: { [key: string]: unknown };
  /** iOS 18: the background of an event ticket's footer. */
  footerBackgroundColor?: string;
  /** iOS 18: when the pass is relevant, as dates or date ranges (supersedes `relevantDate`). */
  relevantDates?: PassRelevantDate[];
  suppressHeaderDarkening?: boolean;
  useAutomaticColors?: boolean;
  eventLogoText?: string;
  /** iOS 18: `posterEventTicket`, `eventTicket` … in order of preference. */
  preferredStyleSchemes?: StyleScheme[];
  /** iOS 18: the apps of a poster event ticket's event guide. */
  auxiliaryStoreIdentifiers?: number[];
  /** iOS 26: the further events of a multi-event ticket. */
  upcomingPassInformation?: PassUpcomingEntry[];
  /** iOS 18 and 26: links shown on poster event tickets and semantic boarding passes. */
  accessibilityURL?: string;
  addOnURL?: string;
  bagPolicyURL?: string;
  changeSeatURL?: string;
  contactVenueEmail?: string;
  contactVenuePhoneNumber?: string;
  contactVenueWebsite?: string;
  directionsInformationURL?: string;
  merchandiseURL?: string;
  orderFoodURL?: string;
  parkingInformationURL?: string;
  purchaseParkingURL?: string;
  sellURL?: string;
  transferURL?: string;
  transitInformationURL?: string;
  entertainmentURL?: string;
  managementURL?: string;
  purchaseAdditionalBaggageURL?: string;
  purchaseLoungeAccessURL?: string;
  purchaseWifiURL?: string;
  registerServiceAnimalURL?: string;
  reportLostBagURL?: string;
  requestWheelchairURL?: string;
  trackBagsURL?: string;
  transitProviderEmail?: string;
  transitProviderPhoneNumber?: string;
  transitProviderWebsiteURL?: string;
  upgradeURL?: string;
}

/**
 * An element of `relevantDates` (iOS 18): one date, or a range.
 *
 * @example
 * ```ts
 * const when: PassRelevantDate = { startDate: '2026-05-07T19:00-05:00', endDate: '2026-05-07T23:00-05:00' };
 * ```
 */
export interface PassRelevantDate {
  date?: string;
  startDate?: string;
  endDate?: string;
  relevantDate?: string;
}

/**
 * An element of `upcomingPassInformation` (iOS 26): one more event of a multi-event ticket.
 *
 * @example
 * ```ts
 * const next: PassUpcomingEntry = { identifier: 'day-2', name: 'Day 2', type: 'event' };
 * ```
 */
export interface PassUpcomingEntry {
  identifier: string;
  name: string;
  type: string;
  isActive?: boolean;
  dateInformation?: { [key: string]: unknown };
  URLs?: { [key: string]: unknown };
  images?: { [key: string]: unknown };
  semantics?: { [key: string]: unknown };
  additionalInfoFields?: Field[];
  backFields?: Field[];
  auxiliaryStoreIdentifiers?: number[];
}

/**
 * A complete pass.json: the body plus the identifiers and web-service data.
 *
 * Note: a Pass's `description` is its accessibility **text** (a string),
 * unlike a template's `description`, which is the pass **body** object.
 *
 * @example
 * ```ts
 * const pass: Pass = buildPass(template, values, { teamIdentifier: 'A93A5CM278', organizationName: 'Example' });
 * ```
 */
export interface Pass extends PassBody {
  serialNumber: string;
  passTypeIdentifier: string;
  formatVersion: 1;
  /** The pass's accessibility text (may be empty) — not a body object. */
  description: string;
  organizationName: string;
  teamIdentifier: string;
  /** At least 16 characters; present exactly when `webServiceURL` is. */
  authenticationToken?: string;
  webServiceURL?: string;
}

/**
 * What may stand in a template where the pass has a `T`: the same shape, or a
 * string holding placeholders (a whole-value placeholder may become a number,
 * boolean, array or object).
 */
export type Templated<T> = T extends string
  ? string
  : T extends number | boolean
    ? T | string
    : T extends readonly (infer U)[]
      ? readonly Templated<U>[] | string
      : T extends object
        ? { readonly [K in keyof T]?: Templated<T[K]> } | string
        : T;

/** The body of a template: a {@link PassBody} whose strings may hold `${placeholders}`. */
export type TemplateBody = { readonly [K in keyof PassBody]?: Templated<PassBody[K]> } & {
  readonly [key: string]: unknown;
};

/**
 * A pass template as the service stores it.
 *
 * Note: a template's `description` is the pass **body** object, unlike a
 * Pass's `description`, which is its accessibility text.
 *
 * @example
 * ```ts
 * const template = definePassTemplate({
 *   id: 1, name: 'Member', formatVersion: 1, passType: 'pass.com.example.member',
 *   description: { generic: { primaryFields: [{ key: 'name', value: '${name}' }] } },
 *   placeholder: ['name'],
 * });
 * ```
 */
export interface PassTemplate<TName extends string = string> {
  readonly id: number;
  readonly name: string;
  readonly formatVersion: 1;
  /** Becomes the pass's `passTypeIdentifier`; starts with `pass.`. */
  readonly passType: string;
  /** The pass body — not the pass's accessibility text. */
  readonly description: TemplateBody;
  readonly placeholder: readonly TName[];
}

/** A value for one placeholder: text, a finite number, a boolean, or JSON. */
export type TemplateValue = string | number | boolean | JsonArray | JsonObject;

/** The values for a template whose declared placeholder names are `TName`. */
export type TemplateValues<TName extends string = string> = string extends TName
  ? { readonly [key: string]: unknown }
  : { readonly [K in TName]: TemplateValue };

/**
 * Who issues a pass: the keys `buildPass` adds to a rendered body.
 *
 * @example
 * ```ts
 * const issuer: PassIssuer = { teamIdentifier: 'A93A5CM278', organizationName: 'Example Events' };
 * ```
 */
export interface PassIssuer {
  teamIdentifier: string;
  organizationName: string;
  /** With it, an `authenticationToken` is written too (given or generated). */
  webServiceURL?: string;
  /** Defaults to `crypto.randomUUID()`. */
  serialNumber?: string;
  /** Defaults to `crypto.randomUUID()`; at least 16 characters. */
  authenticationToken?: string;
  /** The pass's accessibility text; defaults to the template's `name`. */
  description?: string;
}
