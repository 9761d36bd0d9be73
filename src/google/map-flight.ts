import type { Pass } from '../types.js';
import { appendLosses } from './loss.js';
import { semanticLoss, semanticReader } from './semantic-reader.js';
import type { GoogleLoss } from './types.js';

/** The semantic tags a mapping used, what they become in the Google class and object, and what was lost inside them. */
export interface SemanticParts {
  readonly used: ReadonlySet<string>;
  readonly classFields: Record<string, unknown>;
  readonly objectFields: Record<string, unknown>;
  readonly losses: readonly GoogleLoss[];
  /** The Apple tags a Google type requires that the pass lacks (or holds in another shape): the type cannot be used without them. */
  readonly missing: readonly string[];
}

const LOCAL_TIME = /^(\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?)/;

/**
 * Apple's boarding-pass semantic tags as Google's flight data: carrier and
 * flight number, airports with gate and terminal, scheduled departure,
 * boarding and arrival (local times, Google wants no offset),
 * passenger, confirmation code, seat and boarding group. A tag is used only
 * when its value has the shape Apple documents; the others are reported.
 */
export function flightParts(pass: Pass): SemanticParts {
  const tags = semanticReader(pass.semantics);
  const classFields: Record<string, unknown> = {};
  const objectFields: Record<string, unknown> = {};
  const airline = tags.text('airlineCode');
  const flightNumber = tags.text('flightNumber');
  if (airline !== undefined || flightNumber !== undefined) {
    classFields['flightHeader'] = {
      ...(airline === undefined ? {} : { carrier: { carrierIataCode: airline } }),
      ...(flightNumber === undefined ? {} : { flightNumber }),
    };
  }
  // Airports with their gate and terminal (Google's AirportInfo) — only with the airport code Google requires of one.
  const airport = (code: string, gate: string, terminal: string): Record<string, string> | undefined => {
    const iata = tags.text(code);
    if (iata === undefined) return undefined;
    const info: Record<string, string> = { airportIataCode: iata };
    const gateText = tags.text(gate);
    if (gateText !== undefined) info['gate'] = gateText;
    const terminalText = tags.text(terminal);
    if (terminalText !== undefined) info['terminal'] = terminalText;
    return info;
  };
  const origin = airport('departureAirportCode', 'departureGate', 'departureTerminal');
  if (origin !== undefined) classFields['origin'] = origin;
  const destination = airport('destinationAirportCode', 'destinationGate', 'destinationTerminal');
  if (destination !== undefined) classFields['destination'] = destination;
  // Local date-times: Google wants them without an offset.
  for (const [tag, google] of [
    ['originalDepartureDate', 'localScheduledDepartureDateTime'],
    ['originalBoardingDate', 'localBoardingDateTime'],
    ['originalArrivalDate', 'localScheduledArrivalDateTime'],
  ] as const) {
    const value = tags.raw(tag);
    const local = typeof value === 'string' ? LOCAL_TIME.exec(value)?.[1] : undefined;
    if (local === undefined) continue;
    tags.use(tag);
    classFields[google] = local;
  }
  const passenger = tags.raw('passengerName');
  if (passenger !== null && typeof passenger === 'object' && !Array.isArray(passenger)) {
    const name = passenger as Record<string, unknown>;
    const part = (key: string): unknown => (Object.hasOwn(name, key) ? name[key] : undefined);
    const full = [part('givenName'), part('familyName')].filter((piece) => typeof piece === 'string' && piece !== '').join(' ');
    if (full !== '') {
      tags.use('passengerName');
      objectFields['passengerName'] = full;
    }
  }
  const confirmation = tags.text('confirmationNumber');
  if (confirmation !== undefined) objectFields['reservationInfo'] = { confirmationCode: confirmation };
  const seating: Record<string, unknown> = {};
  const boardingGroup = tags.text('boardingGroup');
  if (boardingGroup !== undefined) seating['boardingGroup'] = boardingGroup;
  const seat = firstSeat(tags.raw('seats'));
  // The seat Google shows: its number, else its identifier ("23A").
  const seatKey = seat?.['seatNumber'] !== undefined ? 'seatNumber' : seat?.['seatIdentifier'] !== undefined ? 'seatIdentifier' : undefined;
  if (seat !== undefined && seatKey !== undefined) {
    tags.use('seats');
    seating['seatNumber'] = seat[seatKey];
    appendLosses(tags.losses, seatLosses(tags.raw('seats') as unknown[], [seatKey]));
  }
  if (Object.keys(seating).length > 0) objectFields['boardingAndSeatingInfo'] = seating;
  // Google requires each of these (FlightClass: flightHeader with carrier and flight number, origin, destination,
  // localScheduledDepartureDateTime; FlightObject: passengerName, reservationInfo).
  const missing = [
    airline === undefined ? 'airlineCode' : '',
    flightNumber === undefined ? 'flightNumber' : '',
    origin === undefined ? 'departureAirportCode' : '',
    destination === undefined ? 'destinationAirportCode' : '',
    classFields['localScheduledDepartureDateTime'] === undefined ? 'originalDepartureDate' : '',
    objectFields['passengerName'] === undefined ? 'passengerName' : '',
    confirmation === undefined ? 'confirmationNumber' : '',
  ].filter((tag) => tag !== '');
  return { used: tags.used, classFields, objectFields, losses: tags.losses, missing };
}

/** The text members of the first element of `seats`, when it is an array of objects. */
export function firstSeat(seats: unknown): Record<string, string> | undefined {
  if (!Array.isArray(seats) || seats.length === 0) return undefined;
  const first: unknown = seats[0];
  if (first === null || typeof first !== 'object' || Array.isArray(first)) return undefined;
  const seat: Record<string, string> = {};
  for (const key of ['seatNumber', 'seatRow', 'seatSection', 'seatIdentifier'] as const) {
    const value = Object.hasOwn(first, key) ? (first as Record<string, unknown>)[key] : undefined;
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) seat[key] = String(value);
  }
  return seat;
}

/** What Google has no place for in `seats` once the first seat's `mapped` members are taken: the other seats, the other members. */
export function seatLosses(seats: readonly unknown[], mapped: readonly string[]): GoogleLoss[] {
  const losses: GoogleLoss[] = [];
  const first = seats[0] as Record<string, unknown>;
  for (const key of Object.keys(first)) {
    if (!mapped.includes(key)) losses.push(semanticLoss(['seats', 0, key], `Google Wallet has no place for ${key} of a seat: it is left out.`));
  }
  if (seats.length > 1)
    losses.push(
      semanticLoss(['seats', 1], `Google Wallet shows one seat per pass: ${seats.length - 1} more seat${seats.length === 2 ? ' is' : 's are'} left out.`),
    );
  return losses;
}
