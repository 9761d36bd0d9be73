import { type Example, formValues } from './types.js';

/**
 * A boarding pass: transit type, origin and destination as primary fields, an Aztec code,
 * and the airline's semantic tags (flight, airports, departure, passenger, seat) that
 * Google Wallet's flight needs and iOS 26's semantic boarding pass is drawn from.
 */
export const boardingPass: Example = {
  id: 'boarding-pass',
  title: 'Boarding pass',
  template: {
    id: 55,
    name: 'Boarding pass',
    formatVersion: 1,
    passType: 'pass.com.example.air',
    description: {
      barcodes: [{ message: '${pnr}|${airline}${flightNumber}|${seat}', format: 'PKBarcodeFormatAztec', messageEncoding: 'iso-8859-1' }],
      logoText: 'Example Air',
      foregroundColor: 'rgb(15, 23, 42)',
      backgroundColor: 'rgb(186, 230, 253)',
      labelColor: 'rgb(7, 89, 133)',
      groupingIdentifier: '${pnr}',
      semantics: {
        airlineCode: '${airline}',
        flightNumber: '${flightNumber}',
        departureAirportCode: '${origin}',
        departureCityName: '${originCity}',
        destinationAirportCode: '${destination}',
        destinationCityName: '${destinationCity}',
        originalDepartureDate: '${departure}',
        originalBoardingDate: '${boarding}',
        departureGate: '${gate}',
        passengerName: { givenName: '${givenName}', familyName: '${familyName}' },
        seats: [{ seatIdentifier: '${seat}' }],
        confirmationNumber: '${pnr}',
      },
      boardingPass: {
        transitType: 'PKTransitTypeAir',
        headerFields: [{ key: 'gate', label: 'Gate', value: '${gate}' }],
        primaryFields: [
          { key: 'origin', label: '${originCity}', value: '${origin}' },
          { key: 'destination', label: '${destinationCity}', value: '${destination}' },
        ],
        secondaryFields: [
          { key: 'passenger', label: 'Passenger', value: '${givenName} ${familyName}' },
          { key: 'seat', label: 'Seat', value: '${seat}', textAlignment: 'PKTextAlignmentRight' },
        ],
        auxiliaryFields: [
          { key: 'flight', label: 'Flight', value: '${airline} ${flightNumber}' },
          { key: 'boarding', label: 'Boarding', value: '${boarding}', dateStyle: 'PKDateStyleNone', timeStyle: 'PKDateStyleShort', ignoresTimeZone: true, textAlignment: 'PKTextAlignmentCenter' },
          { key: 'class', label: 'Class', value: '${class}', textAlignment: 'PKTextAlignmentRight' },
        ],
      },
    },
    placeholder: ['pnr', 'airline', 'flightNumber', 'seat', 'gate', 'originCity', 'origin', 'destinationCity', 'destination', 'givenName', 'familyName', 'departure', 'boarding', 'class'],
  },
  values: formValues({
    pnr: 'K7Q2ZD',
    airline: 'EA',
    flightNumber: 815,
    seat: '23A',
    gate: 'B12',
    originCity: 'Lisbon',
    origin: 'LIS',
    destinationCity: 'Copenhagen',
    destination: 'CPH',
    givenName: 'Ada',
    familyName: 'Lovelace',
    departure: '2026-12-01T10:10:00+00:00',
    boarding: '2026-12-01T09:40:00+00:00',
    class: 'Economy',
  }),
};
