import { type Example, formValues } from './types.js';

/** An event ticket with a PDF417 barcode and a grouping identifier. */
export const eventTicket: Example = {
  id: 'event-ticket',
  title: 'Event ticket',
  template: {
    id: 12,
    name: 'Concert ticket',
    formatVersion: 1,
    passType: 'pass.com.example.tickets',
    description: {
      barcodes: [{ message: '${ticketCode}', format: 'PKBarcodeFormatPDF417', messageEncoding: 'iso-8859-1' }],
      logoText: 'City Hall Live',
      foregroundColor: 'rgb(255, 255, 255)',
      backgroundColor: 'rgb(76, 29, 149)',
      labelColor: 'rgb(221, 214, 254)',
      groupingIdentifier: '${eventId}',
      eventTicket: {
        headerFields: [{ key: 'doors', label: 'Doors', value: '${doors}' }],
        primaryFields: [{ key: 'artist', label: 'Artist', value: '${artist}' }],
        secondaryFields: [
          { key: 'venue', label: 'Venue', value: '${venue}' },
          { key: 'date', label: 'Date', value: '${date}', textAlignment: 'PKTextAlignmentRight' },
        ],
        auxiliaryFields: [
          { key: 'section', label: 'Section', value: '${section}' },
          { key: 'row', label: 'Row', value: '${row}', textAlignment: 'PKTextAlignmentCenter' },
          { key: 'seat', label: 'Seat', value: '${seat}', textAlignment: 'PKTextAlignmentRight' },
        ],
        backFields: [{ key: 'info', label: 'Info', value: 'Doors open one hour before the show.' }],
      },
    },
    placeholder: ['ticketCode', 'eventId', 'doors', 'artist', 'venue', 'date', 'section', 'row', 'seat'],
  },
  values: formValues({
    ticketCode: 'TCK-2026-000913',
    eventId: 'ev-2026-12-01',
    doors: '19:00',
    artist: 'The Analytical Engines',
    venue: 'City Hall',
    date: '1 Dec 2026',
    section: 'B',
    row: '4',
    seat: '17',
  }),
};
