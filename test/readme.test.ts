import { expect, test } from 'vitest';
import { buildPass, definePassTemplate } from '../src/index.js';

// The README's ten-line example, verbatim in substance: if this changes, change the README.
test('the README example builds a valid pass from the spec template', () => {
  const template = definePassTemplate({
    id: 42, name: 'Event ticket', formatVersion: 1, passType: 'pass.com.example.event',
    description: {
      barcode: { message: '${barcode}', format: 'PKBarcodeFormatPDF417', messageEncoding: 'iso-8859-1' },
      logoText: '${eventName}', foregroundColor: '#ffffff', backgroundColor: 'rgb(60, 65, 76)',
      generic: { primaryFields: [{ key: 'event', value: '${eventName}' }], secondaryFields: [{ key: 'seat', label: 'Seat', value: 'Row ${seat}', textAlignment: 'PKTextAlignmentRight' }] },
    },
    placeholder: ['eventName', 'seat', 'barcode'],
  });
  const pass = buildPass(template, { eventName: 'Concert', seat: '12B', barcode: 'ABC123456' },
    { teamIdentifier: 'A93A5CM278', organizationName: 'Example Events', webServiceURL: 'https://passes.example.com/' });
  expect(pass.foregroundColor).toBe('rgb(255, 255, 255)');
  expect(pass.serialNumber).toMatch(/^[0-9a-f-]{36}$/);
  expect(pass.authenticationToken).toMatch(/^[0-9a-f-]{36}$/);
  expect(pass.generic?.secondaryFields?.[0]?.value).toBe('Row 12B');
  expect(pass.webServiceURL).toBe('https://passes.example.com/');
});
