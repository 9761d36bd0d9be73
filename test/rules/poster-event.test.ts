import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { validatePass } from '../../src/pass/validate.js';
import { draft } from '../fixtures.js';
import { boardingPass, eventTicketPass } from '../pass/passes.js';

// iOS 18 poster event tickets (Apple, "Creating a poster event pass using
// semantic tags"), iOS 26 upcoming events, and the audit of Apple's key lists.

const poster: any = JSON.parse(readFileSync(new URL('../fixtures/wallet-verdicts/poster-event-ticket.json', import.meta.url), 'utf8'));

function found(pass: unknown): string[] {
  return validatePass(pass).issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`);
}

function edit(base: unknown, change: (pass: any) => void): unknown {
  const copy = draft(base);
  change(copy);
  return copy;
}

// Apple's SemanticTags, read November 2026 (developer.apple.com/documentation/walletpasses/semantictags).
const APPLE_SEMANTIC_TAGS = `additionalTicketAttributes admissionLevel admissionLevelAbbreviation airlineCode albumIDs artistIDs attendeeName
awayTeamAbbreviation awayTeamLocation awayTeamName balance boardingGroup boardingSequenceNumber boardingZone carNumber confirmationNumber
currentArrivalDate currentBoardingDate currentDepartureDate departureAirportCode departureAirportName departureLocationSecurityPrograms
departureLocationTimeZone departureCityName departureGate departureLocation departureLocationDescription departurePlatform departureStationName
departureTerminal destinationAirportCode destinationAirportName destinationLocationSecurityPrograms destinationLocationTimeZone destinationCityName
destinationGate destinationLocation destinationLocationDescription destinationPlatform destinationStationName destinationTerminal duration
entranceDescription eventEndDate eventName eventStartDate eventStartDateInfo eventType flightCode flightNumber genre homeTeamAbbreviation
homeTeamLocation homeTeamName internationalDocumentsAreVerified internationalDocumentsVerifiedDeclarationName leagueAbbreviation leagueName
loungePlaceIDs membershipProgramName membershipProgramNumber membershipProgramStatus originalArrivalDate originalBoardingDate originalDepartureDate
passengerAirlineSSRs passengerCapabilities passengerEligibleSecurityPrograms passengerInformationSSRs passengerName passengerServiceSSRs
performerNames playlistIDs priorityStatus seats securityScreening silenceRequested sportName tailgatingAllowed ticketFareClass totalPrice
transitProvider transitStatus transitStatusReason vehicleName vehicleNumber vehicleType venueBoxOfficeOpenDate venueCloseDate venueDoorsOpenDate
venueEntrance venueEntranceDoor venueEntranceGate venueEntrancePortal venueFanZoneOpenDate venueGatesOpenDate venueLocation venueName
venueOpenDate venueParkingLotsOpenDate venuePhoneNumber venueRegionName venueRoom wifiAccess`.split(/\s+/);

// Apple's Pass (top-level keys, the iOS 26 page) and the iOS 27 additions (posterGeneric, featuredActions).
const APPLE_PASS_KEYS = `accessibilityURL addOnURL appLaunchURL associatedStoreIdentifiers auxiliaryStoreIdentifiers authenticationToken backgroundColor
bagPolicyURL barcode barcodes beacons boardingPass contactVenueEmail contactVenuePhoneNumber contactVenueWebsite coupon description
directionsInformationURL eventLogoText eventTicket expirationDate footerBackgroundColor foregroundColor formatVersion generic groupingIdentifier
labelColor locations logoText maxDistance merchandiseURL nfc orderFoodURL organizationName parkingInformationURL passTypeIdentifier
preferredStyleSchemes purchaseParkingURL relevantDate relevantDates sellURL semantics serialNumber sharingProhibited storeCard suppressStripShine
suppressHeaderDarkening teamIdentifier transferURL transitInformationURL useAutomaticColors userInfo voided webServiceURL changeSeatURL
entertainmentURL purchaseAdditionalBaggageURL purchaseLoungeAccessURL purchaseWifiURL upgradeURL upcomingPassInformation managementURL
registerServiceAnimalURL reportLostBagURL requestWheelchairURL trackBagsURL transitProviderEmail transitProviderPhoneNumber
transitProviderWebsiteURL posterGeneric featuredActions`.split(/\s+/);

// Apple's PassFieldContent members, and the fields of each style body (PassFields, iOS 27 footerFields).
const APPLE_FIELD_KEYS = [
  'attributedValue',
  'changeMessage',
  'currencyCode',
  'dataDetectorTypes',
  'dateStyle',
  'ignoresTimeZone',
  'isRelative',
  'key',
  'label',
  'numberStyle',
  'row',
  'semantics',
  'textAlignment',
  'timeStyle',
  'value',
];
const APPLE_BODY_KEYS = [
  'headerFields',
  'primaryFields',
  'secondaryFields',
  'auxiliaryFields',
  'backFields',
  'additionalInfoFields',
  'footerFields',
  'transitType',
];

// Apple's UpcomingPassInformationEntry members (iOS 26).
const APPLE_UPCOMING_MEMBERS = [
  'identifier',
  'name',
  'type',
  'isActive',
  'dateInformation',
  'URLs',
  'images',
  'semantics',
  'additionalInfoFields',
  'backFields',
  'auxiliaryStoreIdentifiers',
];

describe('poster event tickets', () => {
  test('with the tags Wallet needs: no issue', () => {
    expect(found(poster)).toEqual([]);
  });

  test('each required tag missing is a style-scheme-fallback warning at its place (Wallet draws the ordinary ticket)', () => {
    const report = validatePass(edit(poster, (pass) => (delete pass.semantics.venueRoom, delete pass.semantics.homeTeamAbbreviation)));
    expect(report.ok).toBe(true);
    expect(report.issues.map((issue) => `${issue.severity} ${issue.code} ${issue.path}`)).toEqual([
      'warning style-scheme-fallback /semantics/venueRoom',
      'warning style-scheme-fallback /semantics/homeTeamAbbreviation',
    ]);
    expect(report.issues[0]?.message).toContain('ordinary event ticket');
  });

  test('a live performance needs performerNames; no semantics at all misses all four common tags', () => {
    expect(found(edit(poster, (pass) => (pass.semantics.eventType = 'PKEventTypeLivePerformance')))).toEqual([
      'warning style-scheme-fallback /semantics/performerNames',
    ]);
    expect(found(edit(poster, (pass) => delete pass.semantics))).toEqual([
      'warning style-scheme-fallback /semantics/eventName',
      'warning style-scheme-fallback /semantics/venueName',
      'warning style-scheme-fallback /semantics/venueRegionName',
      'warning style-scheme-fallback /semantics/venueRoom',
    ]);
  });

  test('without posterEventTicket in preferredStyleSchemes, no tag is asked for', () => {
    expect(found(edit(poster, (pass) => ((pass.preferredStyleSchemes = ['eventTicket']), delete pass.semantics.venueRoom)))).toEqual([]);
  });

  test('preferredStyleSchemes: unknown names and schemes for a style the pass lacks are warnings', () => {
    expect(found(edit(poster, (pass) => (pass.preferredStyleSchemes = ['posterEvent', 'eventTicket'])))).toEqual([
      'warning unknown-style-scheme /preferredStyleSchemes/0',
    ]);
    const generic = edit(eventTicketPass, (pass) => {
      pass.generic = pass.eventTicket;
      delete pass.eventTicket;
      delete pass.groupingIdentifier;
      pass.preferredStyleSchemes = ['posterEventTicket'];
    });
    expect(found(generic)).toEqual(['warning style-scheme-fallback /preferredStyleSchemes/0']);
    expect(found(edit(poster, (pass) => (pass.preferredStyleSchemes = 'posterEventTicket')))).toEqual(['error invalid-type /preferredStyleSchemes']);
  });
});

describe("Apple's own keys are never unknown-key", () => {
  test('every semantic tag Apple documents, at the pass and in a field', () => {
    const semantics = Object.fromEntries(APPLE_SEMANTIC_TAGS.map((tag) => [tag, 'x']));
    const report = validatePass(
      edit(eventTicketPass, (pass) => {
        pass.semantics = semantics;
        pass.eventTicket.primaryFields[0].semantics = semantics;
      }),
    );
    expect(report.issues.filter((issue) => issue.code === 'unknown-key')).toEqual([]);
  });

  test('every member of an upcoming event, and venuePlaceID with the semantic tags in its semantics', () => {
    const entry = Object.fromEntries(
      APPLE_UPCOMING_MEMBERS.map((member) => [
        member,
        member === 'isActive'
          ? true
          : ['additionalInfoFields', 'backFields', 'auxiliaryStoreIdentifiers'].includes(member)
            ? []
            : ['dateInformation', 'URLs', 'images', 'semantics'].includes(member)
              ? {}
              : 'x',
      ]),
    );
    entry['semantics'] = { venuePlaceID: 'I63802A9B3F1C2D7E', ...Object.fromEntries(APPLE_SEMANTIC_TAGS.map((tag) => [tag, 'x'])) };
    expect(found(edit(eventTicketPass, (pass) => (pass.upcomingPassInformation = [entry])))).toEqual([]);
  });

  test('every top-level key of a pass, every member of a field and of a style body', () => {
    const unknown = (pass: unknown): string[] =>
      validatePass(pass)
        .issues.filter((issue) => issue.code === 'unknown-key')
        .map((issue) => issue.path);
    const pass = Object.fromEntries(APPLE_PASS_KEYS.map((key) => [key, 'x']));
    expect(unknown(pass)).toEqual([]);
    const field = Object.fromEntries(APPLE_FIELD_KEYS.map((key) => [key, 'x']));
    const body = Object.fromEntries(APPLE_BODY_KEYS.map((key) => [key, key === 'transitType' ? 'PKTransitTypeAir' : [field]]));
    expect(unknown(edit(eventTicketPass, (each) => ((each.boardingPass = body), delete each.eventTicket)))).toEqual([]);
  });

  test('a typo is still caught, with a suggestion', () => {
    const report = validatePass(edit(poster, (pass) => (pass.upcomingPassInformation[0].semantics.venuePlaceId = 'x')));
    expect(report.issues).toMatchObject([{ severity: 'warning', code: 'unknown-key', path: '/upcomingPassInformation/0/semantics/venuePlaceId' }]);
    expect(report.issues[0]?.message).toContain('did you mean `venuePlaceID`');
  });
});

describe('semantic boarding passes (iOS 26)', () => {
  const semantics = {
    airlineCode: 'EX',
    flightNumber: 512,
    departureAirportCode: 'ZRH',
    departureCityName: 'Zürich',
    departureLocationTimeZone: 'Europe/Zurich',
    destinationAirportCode: 'LIS',
    destinationCityName: 'Lisbon',
    destinationLocationTimeZone: 'Europe/Lisbon',
    originalArrivalDate: '2027-03-02T12:40+00:00',
    originalBoardingDate: '2027-03-02T09:35+01:00',
    originalDepartureDate: '2027-03-02T10:05+01:00',
    passengerName: { givenName: 'Ada', familyName: 'Ruiz' },
  };
  const semantic = (change: (pass: any) => void) =>
    found(
      edit(boardingPass, (pass) => {
        pass.preferredStyleSchemes = ['semanticBoardingPass', 'boardingPass'];
        pass.semantics = { ...semantics };
        change(pass);
      }),
    );

  test('with the twelve tags Wallet needs and an air transit type: no issue', () => {
    expect(semantic(() => undefined)).toEqual([]);
  });

  test('a missing tag, or a train, is a style-scheme-fallback warning', () => {
    expect(semantic((pass) => delete pass.semantics.destinationLocationTimeZone)).toEqual([
      'warning style-scheme-fallback /semantics/destinationLocationTimeZone',
    ]);
    expect(semantic((pass) => (pass.boardingPass.transitType = 'PKTransitTypeTrain'))).toEqual(['warning style-scheme-fallback /boardingPass/transitType']);
  });
});
