import type { PassEventData } from '../../src/webhooks/index.js';

/** Data of the pass events in these tests. */
export const passData: PassEventData = { serialNumber: 'E5982H-I2', passTypeIdentifier: 'pass.com.example.ticket' };
