import { type Example, formValues } from './types.js';

/** A generic pass: a gym membership with a QR code. */
export const membershipCard: Example = {
  id: 'membership',
  title: 'Membership card (generic)',
  template: {
    id: 7,
    name: 'Membership card',
    formatVersion: 1,
    passType: 'pass.com.example.membership',
    description: {
      barcodes: [{ message: 'member:${memberId}', format: 'PKBarcodeFormatQR', messageEncoding: 'iso-8859-1', altText: '${memberId}' }],
      logoText: 'Northside Climbing',
      foregroundColor: 'rgb(255, 255, 255)',
      backgroundColor: 'rgb(22, 101, 52)',
      labelColor: 'rgb(187, 247, 208)',
      generic: {
        headerFields: [{ key: 'level', label: 'Level', value: '${level}' }],
        primaryFields: [{ key: 'member', label: 'Member', value: '${firstName} ${lastName}' }],
        secondaryFields: [
          { key: 'memberId', label: 'Member no.', value: '${memberId}' },
          { key: 'since', label: 'Since', value: '${since}', textAlignment: 'PKTextAlignmentRight' },
        ],
        auxiliaryFields: [
          { key: 'home', label: 'Home gym', value: '${gym}' },
          { key: 'valid', label: 'Valid until', value: '${validUntil}', textAlignment: 'PKTextAlignmentRight' },
        ],
        backFields: [{ key: 'terms', label: 'Terms', value: 'Show this card at the front desk. Not transferable.' }],
      },
    },
    placeholder: ['firstName', 'lastName', 'memberId', 'level', 'since', 'gym', 'validUntil'],
  },
  values: formValues({
    firstName: 'Grace',
    lastName: 'Hopper',
    memberId: 'NC-004217',
    level: 'Gold',
    since: '2019',
    gym: 'Harbour Street',
    validUntil: '2027-03-31',
  }),
};
