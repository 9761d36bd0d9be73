// Which changes owe a Google message: a field with a changeMessage whose value
// changed since the pass Google has, in any of the five field lists.
import { describe, expect, test } from 'vitest';
import { changeMessages } from '../../src/server/db/google-messages.js';
import type { Pass } from '../../src/types.js';

const pass = (fields: NonNullable<Pass['generic']>): Pass => ({
  formatVersion: 1,
  passTypeIdentifier: 'pass.com.example.member',
  serialNumber: 'M-1',
  teamIdentifier: 'A93A5CM278',
  organizationName: 'Example Club',
  description: 'Member card',
  generic: fields,
});

describe('changeMessages', () => {
  test('a changed value with a changeMessage: %@ becomes the value, the label the header', () => {
    const before = pass({ primaryFields: [{ key: 'level', label: 'Level', value: 'Silver', changeMessage: 'Now %@ (was not %@ before)' }] });
    const after = pass({ primaryFields: [{ key: 'level', label: 'Level', value: 'Gold', changeMessage: 'Now %@ (was not %@ before)' }] });
    expect(changeMessages(before, after)).toEqual([{ fieldKey: 'level', header: 'Level', body: 'Now Gold (was not Gold before)' }]);
  });

  test('no label: the organization is the header; back fields and numbers count too', () => {
    const before = pass({ backFields: [{ key: 'points', value: 10, changeMessage: 'You have %@ points' }] });
    const after = pass({ backFields: [{ key: 'points', value: 12, changeMessage: 'You have %@ points' }] });
    expect(changeMessages(before, after)).toEqual([{ fieldKey: 'points', header: 'Example Club', body: 'You have 12 points' }]);
  });

  test('nothing owed: the same value, no changeMessage, or a field that is new', () => {
    const before = pass({
      primaryFields: [
        { key: 'a', value: 'x', changeMessage: '%@' },
        { key: 'b', value: 'x' },
      ],
    });
    const after = pass({
      primaryFields: [
        { key: 'a', value: 'x', changeMessage: '%@' },
        { key: 'b', value: 'y' },
      ],
      secondaryFields: [{ key: 'c', value: 'new', changeMessage: '%@' }],
    });
    expect(changeMessages(before, after)).toEqual([]);
  });

  test('a field that moved to another list is still the same field', () => {
    const before = pass({ secondaryFields: [{ key: 'gate', label: 'Gate', value: 'A1', changeMessage: 'Gate %@' }] });
    const after = pass({ auxiliaryFields: [{ key: 'gate', label: 'Gate', value: 'B2', changeMessage: 'Gate %@' }] });
    expect(changeMessages(before, after)).toEqual([{ fieldKey: 'gate', header: 'Gate', body: 'Gate B2' }]);
  });
});
