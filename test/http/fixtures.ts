import type { Pass, PassTemplate } from '../../src/types.js';

export const apiKey = 'pk_test_4f9c2b7e1d8a6053';
export const previousApiKey = 'pk_test_0a1b2c3d4e5f6789';

/** A pass shaped like the one the spec shows, with the given identifiers. */
export function makePass(passTypeIdentifier: string, serialNumber: string): Pass {
  return {
    barcode: { message: '123456789', format: 'PKBarcodeFormatPDF417', messageEncoding: 'iso-8859-1' },
    logoText: 'Example Events',
    foregroundColor: 'rgb(255, 255, 255)',
    backgroundColor: 'rgb(60, 65, 76)',
    generic: {
      primaryFields: [{ key: 'member', value: 'Jane Doe' }],
      secondaryFields: [{ key: 'level', label: 'Level', value: 'Gold' }],
      auxiliaryFields: [{ key: 'since', label: 'Since', value: '2024', textAlignment: 'PKTextAlignmentRight' }],
    },
    serialNumber,
    passTypeIdentifier,
    formatVersion: 1,
    description: 'Example Events membership card',
    organizationName: 'Example Events',
    teamIdentifier: 'A93A5CM278',
    authenticationToken: 'vxwxd7J8AlNNFPS8k0a0FfUFtq0ewzFdc',
    webServiceURL: 'https://passes.example.com/wallet/',
  };
}

/** A template with the given id. */
export function makeTemplate(id: number): PassTemplate {
  return {
    id,
    name: 'Member',
    formatVersion: 1,
    passType: 'pass.com.example.member',
    description: {
      logoText: 'Example Events',
      backgroundColor: 'rgb(60, 65, 76)',
      generic: { primaryFields: [{ key: 'member', value: '${name}' }] },
    },
    placeholder: ['name'],
  };
}
