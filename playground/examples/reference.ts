import { type Example, formValues } from './types.js';

/** The template the spec shows (also the benchmark's reference workload), generic style. */
export const reference: Example = {
  id: 'reference',
  title: 'Spec example (generic)',
  template: {
    id: 42,
    name: 'Event ticket',
    formatVersion: 1,
    passType: 'pass.com.example.event',
    description: {
      barcode: { message: '${barcode}', format: 'PKBarcodeFormatPDF417', messageEncoding: 'iso-8859-1' },
      logoText: '${eventName}',
      foregroundColor: '#ffffff',
      backgroundColor: 'rgb(60, 65, 76)',
      generic: {
        primaryFields: [{ key: 'event', value: '${eventName}' }],
        secondaryFields: [
          { key: 'venue', label: 'Venue', value: '${venue}' },
          { key: 'date', label: 'Date', value: '${date}', textAlignment: 'PKTextAlignmentRight' },
        ],
        auxiliaryFields: [
          { key: 'seat', label: 'Seat', value: 'Row ${seat}' },
          { key: 'holder', label: 'Holder', value: '${holder}' },
        ],
      },
    },
    placeholder: ['eventName', 'venue', 'date', 'seat', 'holder', 'barcode'],
  },
  values: formValues({
    eventName: 'Concert',
    venue: 'Hall A',
    date: '2026-12-01',
    seat: '12B',
    holder: 'Ada Lovelace',
    barcode: 'ABC123456',
  }),
};
