import { type Example, formValues } from './types.js';

/** A boarding pass: transit type, origin and destination as primary fields, an Aztec code. */
export const boardingPass: Example = {
  id: 'boarding-pass',
  title: 'Boarding pass',
  template: {
    id: 55,
    name: 'Boarding pass',
    formatVersion: 1,
    passType: 'pass.com.example.air',
    description: {
      barcodes: [{ message: '${pnr}|${flight}|${seat}', format: 'PKBarcodeFormatAztec', messageEncoding: 'iso-8859-1' }],
      logoText: 'Example Air',
      foregroundColor: 'rgb(15, 23, 42)',
      backgroundColor: 'rgb(186, 230, 253)',
      labelColor: 'rgb(3, 105, 161)',
      groupingIdentifier: '${pnr}',
      boardingPass: {
        transitType: 'PKTransitTypeAir',
        headerFields: [{ key: 'gate', label: 'Gate', value: '${gate}' }],
        primaryFields: [
          { key: 'origin', label: '${originCity}', value: '${origin}' },
          { key: 'destination', label: '${destinationCity}', value: '${destination}' },
        ],
        secondaryFields: [
          { key: 'passenger', label: 'Passenger', value: '${passenger}' },
          { key: 'seat', label: 'Seat', value: '${seat}', textAlignment: 'PKTextAlignmentRight' },
        ],
        auxiliaryFields: [
          { key: 'flight', label: 'Flight', value: '${flight}' },
          { key: 'boarding', label: 'Boarding', value: '${boarding}', textAlignment: 'PKTextAlignmentCenter' },
          { key: 'class', label: 'Class', value: '${class}', textAlignment: 'PKTextAlignmentRight' },
        ],
      },
    },
    placeholder: ['pnr', 'flight', 'seat', 'gate', 'originCity', 'origin', 'destinationCity', 'destination', 'passenger', 'boarding', 'class'],
  },
  values: formValues({
    pnr: 'K7Q2ZD',
    flight: 'EA 815',
    seat: '23A',
    gate: 'B12',
    originCity: 'Lisbon',
    origin: 'LIS',
    destinationCity: 'Copenhagen',
    destination: 'CPH',
    passenger: 'Ada Lovelace',
    boarding: '09:40',
    class: 'Economy',
  }),
};
