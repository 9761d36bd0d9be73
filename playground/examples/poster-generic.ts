import { type Example, formValues } from './types.js';

/** An iOS 27 posterGeneric pass, with the generic layout older iPhones show. */
export const posterGeneric: Example = {
  id: 'poster-generic',
  title: 'Poster generic (iOS 27)',
  template: {
    id: 27,
    name: 'Museum membership',
    formatVersion: 1,
    passType: 'pass.com.example.museum',
    description: {
      barcodes: [{ message: 'museum:${memberId}', format: 'PKBarcodeFormatQR', messageEncoding: 'iso-8859-1', altText: '${memberId}' }],
      logoText: 'Harbour Museum',
      foregroundColor: 'rgb(255, 255, 255)',
      backgroundColor: 'rgb(124, 45, 18)',
      labelColor: 'rgb(254, 215, 170)',
      posterGeneric: {
        headerFields: [{ key: 'tier', label: 'Tier', value: '${tier}' }],
        primaryFields: [
          { key: 'member', label: 'Member', value: '${name}' },
          { key: 'until', label: 'Valid until', value: '${validUntil}', dateStyle: 'PKDateStyleMedium', timeStyle: 'PKDateStyleNone' },
        ],
        footerFields: [{ key: 'guests', label: 'Guests', value: '${guests}' }],
        backFields: [{ key: 'visit', label: 'Visit', value: 'Open daily 10:00–18:00. https://museum.example.com' }],
      },
      generic: {
        headerFields: [{ key: 'tier', label: 'Tier', value: '${tier}' }],
        primaryFields: [{ key: 'member', label: 'Member', value: '${name}' }],
        secondaryFields: [
          { key: 'until', label: 'Valid until', value: '${validUntil}', dateStyle: 'PKDateStyleMedium', timeStyle: 'PKDateStyleNone' },
          { key: 'guests', label: 'Guests', value: '${guests}', textAlignment: 'PKTextAlignmentRight' },
        ],
        backFields: [{ key: 'visit', label: 'Visit', value: 'Open daily 10:00–18:00. https://museum.example.com' }],
      },
    },
    placeholder: ['memberId', 'tier', 'name', 'validUntil', 'guests'],
  },
  values: formValues({ memberId: 'HM-88213', tier: 'Patron', name: 'Ada Lovelace', validUntil: '2027-06-30T00:00:00Z', guests: '2' }),
};
