import { type Example, formValues } from './types.js';

/** A coupon; the discount is a whole-value placeholder that becomes a number. */
export const coupon: Example = {
  id: 'coupon',
  title: 'Coupon',
  template: {
    id: 31,
    name: 'Spring coupon',
    formatVersion: 1,
    passType: 'pass.com.example.coupons',
    description: {
      barcodes: [{ message: '${code}', format: 'PKBarcodeFormatAztec', messageEncoding: 'iso-8859-1', altText: '${code}' }],
      logoText: 'Bakehouse',
      foregroundColor: 'rgb(67, 20, 7)',
      backgroundColor: 'rgb(254, 215, 170)',
      labelColor: 'rgb(154, 52, 18)',
      coupon: {
        primaryFields: [{ key: 'offer', label: 'Off any cake', value: '${discount}', numberStyle: 'PKNumberStylePercent' }],
        secondaryFields: [{ key: 'for', label: 'For', value: '${customer}' }],
        auxiliaryFields: [{ key: 'expires', label: 'Expires', value: '${expires}', textAlignment: 'PKTextAlignmentRight' }],
        backFields: [{ key: 'terms', label: 'Terms', value: 'One coupon per visit.' }],
      },
    },
    placeholder: ['code', 'discount', 'customer', 'expires'],
  },
  values: formValues({ code: 'SPRING-25', discount: 0.25, customer: 'Ada Lovelace', expires: '30 Apr 2026' }),
};
