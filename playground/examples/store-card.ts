import { type Example, formValues } from './types.js';

/** A store card: a balance in a currency (a number value) and a Code128 barcode. */
export const storeCard: Example = {
  id: 'store-card',
  title: 'Store card',
  template: {
    id: 77,
    name: 'Coffee card',
    formatVersion: 1,
    passType: 'pass.com.example.coffee',
    description: {
      barcodes: [{ message: '${cardNumber}', format: 'PKBarcodeFormatCode128', messageEncoding: 'iso-8859-1', altText: '${cardNumber}' }],
      logoText: 'Bean There',
      foregroundColor: 'rgb(255, 251, 235)',
      backgroundColor: 'rgb(120, 53, 15)',
      labelColor: 'rgb(253, 230, 138)',
      storeCard: {
        headerFields: [{ key: 'stars', label: 'Stars', value: '${stars}' }],
        primaryFields: [{ key: 'balance', label: 'Balance', value: '${balance}', currencyCode: 'EUR' }],
        secondaryFields: [{ key: 'owner', label: 'Card holder', value: '${owner}' }],
        auxiliaryFields: [{ key: 'number', label: 'Card no.', value: '${cardNumber}', textAlignment: 'PKTextAlignmentRight' }],
      },
    },
    placeholder: ['cardNumber', 'stars', 'balance', 'owner'],
  },
  values: formValues({ cardNumber: '6011000990139424', stars: '7', balance: 12.5, owner: 'Ada Lovelace' }),
};
