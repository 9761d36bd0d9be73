import { type Example, formValues } from './types.js';

/** An iOS 18 poster event ticket: the semantic tags Wallet draws the poster from, and the event ticket older iPhones show. */
export const posterEvent: Example = {
  id: 'poster-event',
  title: 'Poster event ticket (iOS 18)',
  template: {
    id: 18,
    name: 'Poster concert ticket',
    formatVersion: 1,
    passType: 'pass.com.example.tickets',
    description: {
      preferredStyleSchemes: ['posterEventTicket', 'eventTicket'],
      barcodes: [{ message: '${ticketCode}', format: 'PKBarcodeFormatQR', messageEncoding: 'iso-8859-1' }],
      logoText: 'City Hall Live',
      eventLogoText: 'City Hall Live',
      foregroundColor: 'rgb(255, 255, 255)',
      backgroundColor: 'rgb(30, 27, 75)',
      labelColor: 'rgb(199, 210, 254)',
      footerBackgroundColor: 'rgb(15, 13, 40)',
      relevantDates: [{ startDate: '${doors}', endDate: '${ends}' }],
      semantics: {
        eventType: 'PKEventTypeLivePerformance',
        eventName: '${artist} — Winter Tour',
        performerNames: ['${artist}'],
        venueName: 'City Hall',
        venueRoom: 'Main Hall',
        venueRegionName: 'Sheffield',
        eventStartDate: '${doors}',
        eventEndDate: '${ends}',
        // The poster's footer shows the seating from these (Apple: seats populate the seating and entry information).
        seats: [{ seatSection: '${section}', seatRow: '${row}', seatNumber: '${seat}' }],
      },
      eventTicket: {
        primaryFields: [{ key: 'artist', label: 'Artist', value: '${artist}' }],
        secondaryFields: [
          { key: 'date', label: 'Doors', value: '${doors}', dateStyle: 'PKDateStyleMedium', timeStyle: 'PKDateStyleShort', ignoresTimeZone: true },
        ],
        auxiliaryFields: [
          { key: 'section', label: 'Section', value: '${section}' },
          { key: 'row', label: 'Row', value: '${row}', textAlignment: 'PKTextAlignmentCenter' },
          { key: 'seat', label: 'Seat', value: '${seat}', textAlignment: 'PKTextAlignmentRight' },
        ],
        additionalInfoFields: [{ key: 'entry', label: 'Entry', value: 'Doors open one hour before the show.' }],
        backFields: [{ key: 'help', label: 'Help', value: 'https://tickets.example.com/help or +44 114 496 0000' }],
      },
    },
    placeholder: ['ticketCode', 'artist', 'doors', 'ends', 'section', 'row', 'seat'],
  },
  values: formValues({
    ticketCode: 'TCK-2026-000913',
    artist: 'The Analytical Engines',
    doors: '2026-12-01T19:00:00+00:00',
    ends: '2026-12-01T23:00:00+00:00',
    section: 'B',
    row: '4',
    seat: '17',
  }),
};
