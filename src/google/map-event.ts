import type { Pass } from '../types.js';
import { firstSeat, type SemanticParts, seatLosses } from './map-flight.js';
import { appendLosses } from './loss.js';
import { semanticLoss, semanticReader } from './semantic-reader.js';

// Google's EventDateTime takes ISO 8601 date-times with or without an offset; Apple's semantic dates are W3C dates.
const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)?$/;

/**
 * Apple's event-ticket semantic tags (iOS 12+ and the iOS 18 poster event
 * ticket's) as Google's event ticket data: the event name, the venue's name and address (iOS 18's venueRegionName),
 * the start, end and doors-open times (class), the attendee, the first
 * seat's number, row and section, the entrance gate and the confirmation
 * number (object). `text(value)` makes a Google LocalizedString. The other
 * tags — venue location, performers, teams, prices, the poster's extras —
 * have no Google field and are reported by the caller.
 */
export function eventParts(pass: Pass, text: (value: string) => unknown): SemanticParts {
  const tags = semanticReader(pass.semantics);
  const classFields: Record<string, unknown> = {};
  const objectFields: Record<string, unknown> = {};
  const eventName = tags.text('eventName');
  if (eventName !== undefined) classFields['eventName'] = text(eventName);
  // Google requires a venue's address with its name; Apple's one address-like tag is iOS 18's venueRegionName.
  const venueName = tags.raw('venueName');
  const region = tags.raw('venueRegionName');
  if (typeof venueName === 'string' && venueName !== '' && typeof region === 'string' && region !== '') {
    tags.use('venueName');
    tags.use('venueRegionName');
    classFields['venue'] = { name: text(venueName), address: text(region) };
  } else if (typeof venueName === 'string' && venueName !== '') {
    tags.use('venueName');
    tags.losses.push(
      semanticLoss(
        ['venueName'],
        `Google Wallet requires a venue's address with its name, and the pass has no venueRegionName: the venue "${venueName.slice(0, 60)}" is left out of Google's venue.`,
      ),
    );
  }
  const dateTime: Record<string, string> = {};
  for (const [tag, google] of [
    ['eventStartDate', 'start'],
    ['eventEndDate', 'end'],
    ['venueDoorsOpenDate', 'doorsOpen'],
  ] as const) {
    const value = tags.raw(tag);
    if (typeof value !== 'string' || !DATE_TIME.test(value)) continue;
    tags.use(tag);
    dateTime[google] = value;
  }
  if (Object.keys(dateTime).length > 0) classFields['dateTime'] = dateTime;
  const attendee = tags.text('attendeeName');
  if (attendee !== undefined) objectFields['ticketHolderName'] = attendee;
  const confirmation = tags.text('confirmationNumber');
  if (confirmation !== undefined) objectFields['reservationInfo'] = { confirmationCode: confirmation };
  const seatInfo: Record<string, unknown> = {};
  const seat = firstSeat(tags.raw('seats'));
  if (seat !== undefined && Object.keys(seat).length > 0) {
    tags.use('seats');
    // The seat: its number, else its identifier.
    const seatKey = seat['seatNumber'] !== undefined ? 'seatNumber' : seat['seatIdentifier'] !== undefined ? 'seatIdentifier' : undefined;
    const mapped: string[] = [];
    if (seatKey !== undefined) {
      seatInfo['seat'] = text(seat[seatKey] as string);
      mapped.push(seatKey);
    }
    for (const [key, google] of [
      ['seatRow', 'row'],
      ['seatSection', 'section'],
    ] as const) {
      const value = seat[key];
      if (value === undefined) continue;
      seatInfo[google] = text(value);
      mapped.push(key);
    }
    appendLosses(tags.losses, seatLosses(tags.raw('seats') as unknown[], mapped));
  }
  const gate = tags.text('venueEntranceGate');
  if (gate !== undefined) seatInfo['gate'] = text(gate);
  if (Object.keys(seatInfo).length > 0) objectFields['seatInfo'] = seatInfo;
  return { used: tags.used, classFields, objectFields, losses: tags.losses, missing: [] };
}
