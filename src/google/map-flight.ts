import type { Pass } from '../types.js';

/** The semantic tags a flight uses, and what they become in the Google flight class and object. */
export interface FlightParts {
  readonly used: ReadonlySet<string>;
  readonly classFields: Record<string, unknown>;
  readonly objectFields: Record<string, unknown>;
}

const LOCAL_TIME = /^(\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?)/;

/**
 * Apple's boarding-pass semantic tags as Google's flight data: carrier and
 * flight number, airports, departure (local time, Google wants no offset),
 * passenger, confirmation code, seat and boarding group.
 */
export function flightParts(pass: Pass): FlightParts {
  const semantics = (pass.semantics ?? {}) as Record<string, unknown>;
  const used = new Set<string>();
  const take = (key: string): unknown => {
    const value = semantics[key];
    if (value !== undefined) used.add(key);
    return value;
  };
  const text = (value: unknown): string | undefined => (typeof value === 'string' || typeof value === 'number' ? String(value) : undefined);
  const classFields: Record<string, unknown> = {};
  const objectFields: Record<string, unknown> = {};
  const airline = text(take('airlineCode'));
  const flightNumber = text(take('flightNumber'));
  if (airline !== undefined || flightNumber !== undefined) {
    classFields['flightHeader'] = {
      ...(airline === undefined ? {} : { carrier: { carrierIataCode: airline } }),
      ...(flightNumber === undefined ? {} : { flightNumber }),
    };
  }
  const origin = text(take('departureAirportCode'));
  if (origin !== undefined) classFields['origin'] = { airportIataCode: origin };
  const destination = text(take('destinationAirportCode'));
  if (destination !== undefined) classFields['destination'] = { airportIataCode: destination };
  const departure = LOCAL_TIME.exec(text(take('originalDepartureDate')) ?? '')?.[1];
  if (departure !== undefined) classFields['localScheduledDepartureDateTime'] = departure;
  const passenger = take('passengerName');
  if (passenger !== null && typeof passenger === 'object') {
    const name = passenger as Record<string, unknown>;
    const full = [name['givenName'], name['familyName']].filter((part) => typeof part === 'string').join(' ');
    if (full !== '') objectFields['passengerName'] = full;
  }
  const confirmation = text(take('confirmationNumber'));
  if (confirmation !== undefined) objectFields['reservationInfo'] = { confirmationCode: confirmation };
  const seating: Record<string, unknown> = {};
  const boardingGroup = text(take('boardingGroup'));
  if (boardingGroup !== undefined) seating['boardingGroup'] = boardingGroup;
  const seats = take('seats');
  const seat = Array.isArray(seats) ? text((seats[0] as Record<string, unknown> | undefined)?.['seatNumber']) : undefined;
  if (seat !== undefined) seating['seatNumber'] = seat;
  if (Object.keys(seating).length > 0) objectFields['boardingAndSeatingInfo'] = seating;
  return { used, classFields, objectFields };
}
