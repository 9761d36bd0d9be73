import { describe, isDict, isDynamic, type Key, mayInherit, nameOf, report } from './context.js';
import { reportUnknownKey } from './unknown-key.js';
import type { Check } from './values.js';

// Apple's SemanticTags (developer.apple.com/documentation/walletpasses/semantictags),
// as of iOS 26: the tags of iOS 12–17, the poster event ticket's of iOS 18,
// and the semantic boarding pass's of iOS 26. See src/rules/SOURCES.md.
const SEMANTIC_TAGS: readonly string[] = [
  // iOS 12–17
  'airlineCode',
  'artistIDs',
  'awayTeamAbbreviation',
  'awayTeamLocation',
  'awayTeamName',
  'balance',
  'boardingGroup',
  'boardingSequenceNumber',
  'carNumber',
  'confirmationNumber',
  'currentArrivalDate',
  'currentBoardingDate',
  'currentDepartureDate',
  'departureAirportCode',
  'departureAirportName',
  'departureGate',
  'departureLocation',
  'departureLocationDescription',
  'departurePlatform',
  'departureStationName',
  'departureTerminal',
  'destinationAirportCode',
  'destinationAirportName',
  'destinationGate',
  'destinationLocation',
  'destinationLocationDescription',
  'destinationPlatform',
  'destinationStationName',
  'destinationTerminal',
  'duration',
  'eventEndDate',
  'eventName',
  'eventStartDate',
  'eventType',
  'flightCode',
  'flightNumber',
  'genre',
  'homeTeamAbbreviation',
  'homeTeamLocation',
  'homeTeamName',
  'leagueAbbreviation',
  'leagueName',
  'membershipProgramName',
  'membershipProgramNumber',
  'originalArrivalDate',
  'originalBoardingDate',
  'originalDepartureDate',
  'passengerName',
  'performerNames',
  'priorityStatus',
  'seats',
  'securityScreening',
  'silenceRequested',
  'sportName',
  'totalPrice',
  'transitProvider',
  'transitStatus',
  'transitStatusReason',
  'vehicleName',
  'vehicleNumber',
  'vehicleType',
  'venueEntrance',
  'venueLocation',
  'venueName',
  'venuePhoneNumber',
  'venueRoom',
  'wifiAccess',
  // iOS 18: poster event tickets
  'additionalTicketAttributes',
  'admissionLevel',
  'admissionLevelAbbreviation',
  'airplay',
  'albumIDs',
  'attendeeName',
  'entranceDescription',
  'eventLiveMessage',
  'eventStartDateInfo',
  'playlistIDs',
  'tailgatingAllowed',
  'venueBoxOfficeOpenDate',
  'venueCloseDate',
  'venueDoorsOpenDate',
  'venueEntranceDoor',
  'venueEntranceGate',
  'venueEntrancePortal',
  'venueFanZoneOpenDate',
  'venueGatesOpenDate',
  'venueOpenDate',
  'venueParkingLotsOpenDate',
  'venueRegionName',
  // iOS 26: semantic boarding passes
  'boardingZone',
  'departureCityName',
  'departureLocationSecurityPrograms',
  'departureLocationTimeZone',
  'destinationCityName',
  'destinationLocationSecurityPrograms',
  'destinationLocationTimeZone',
  'internationalDocumentsAreVerified',
  'internationalDocumentsVerifiedDeclarationName',
  'loungePlaceIDs',
  'membershipProgramStatus',
  'passengerAirlineSSRs',
  'passengerCapabilities',
  'passengerEligibleSecurityPrograms',
  'passengerInformationSSRs',
  'passengerServiceSSRs',
  'ticketFareClass',
];
/** Every semantic tag Apple documents for a pass's and a field's `semantics`. */

// An upcoming event's semantics are SemanticTags plus the MapKit Place ID of
// its venue (UpcomingPassInformationEntry → semantics, iOS 26).
const UPCOMING_TAGS: readonly string[] = [...SEMANTIC_TAGS, 'venuePlaceID'];

function semanticsCheck(tags: readonly string[]): Check {
  const known: ReadonlySet<string> = new Set(tags);
  return (context, value, key) => {
    if (isDynamic(context, value)) return;
    if (!isDict(value)) {
      report(context, 'error', 'invalid-type', key, `${nameOf(context, key)} must be an object of semantic tags, not ${describe(value)}`);
      return;
    }
    context.stack.push(key as Key);
    const inherited = mayInherit(context, value);
    for (const tag in value) {
      if (inherited && !Object.hasOwn(value, tag)) continue;
      if (!known.has(tag)) reportUnknownKey(context, tag, tags, 'semantic tags');
    }
    context.stack.pop();
  };
}

/**
 * `semantics` (of a pass or a field): an object of Apple's semantic tags.
 * Their values are Wallet's business and not checked; a tag Apple does not
 * document is a warning `unknown-key`, with a suggestion, since most are typos.
 */
export const checkSemantics: Check = semanticsCheck(SEMANTIC_TAGS);

/** `semantics` of an upcoming event: the semantic tags and `venuePlaceID`. */
export const checkUpcomingSemantics: Check = semanticsCheck(UPCOMING_TAGS);
