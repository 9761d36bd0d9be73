import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatRgb, isHexColor, parseColor, toRgbColor } from '../../src/rules/color.js';
import { RUNS } from '../arbitraries.js';

describe('parseColor', () => {
  test.each([
    ['rgb(60, 65, 76)', { r: 60, g: 65, b: 76 }],
    ['rgb(0,0,0)', { r: 0, g: 0, b: 0 }],
    ['rgb( 255 ,255 , 255 )', { r: 255, g: 255, b: 255 }],
    ['rgb(007, 65, 76)', { r: 7, g: 65, b: 76 }],
    ['#3c414c', { r: 60, g: 65, b: 76 }],
    ['#3C414C', { r: 60, g: 65, b: 76 }],
    ['#F00', { r: 255, g: 0, b: 0 }],
    ['#abc', { r: 170, g: 187, b: 204 }],
  ])('%j is %j', (text, color) => {
    expect(parseColor(text)).toEqual(color);
  });

  test.each([
    'red',
    '',
    'rgb(256, 0, 0)',
    'rgb(-1, 0, 0)',
    'rgb(1.5, 0, 0)',
    'rgb(0, 0)',
    'rgba(0, 0, 0, 1)',
    'RGB(0, 0, 0)',
    'rgb(0, 0, 0) ',
    '#ffff',
    '#12345',
    '#gggggg',
    'ffffff',
    'rgb(0000, 0, 0)',
  ])('%j is not a color', (text) => {
    expect(parseColor(text)).toBeUndefined();
  });

  test('a non-string gives undefined rather than throwing', () => {
    expect(parseColor(42 as never)).toBeUndefined();
  });
});

describe('formatRgb and toRgbColor', () => {
  test('formatRgb writes Apple’s form', () => {
    expect(formatRgb({ r: 255, g: 0, b: 10 })).toBe('rgb(255, 0, 10)');
  });

  test.each([
    ['#3c414c', 'rgb(60, 65, 76)'],
    ['#FFF', 'rgb(255, 255, 255)'],
    ['rgb(60,65,76)', 'rgb(60, 65, 76)'],
    ['rgb( 007 , 65 , 76 )', 'rgb(7, 65, 76)'],
    ['rgb(60, 65, 76)', 'rgb(60, 65, 76)'],
    ['red', 'red'],
    ['rgb(300, 0, 0)', 'rgb(300, 0, 0)'],
  ])('toRgbColor(%j) is %j', (text, expected) => {
    expect(toRgbColor(text)).toBe(expected);
  });

  test('isHexColor tells the hex forms apart', () => {
    expect([isHexColor('#fff'), isHexColor('#ffffff'), isHexColor('rgb(1, 2, 3)'), isHexColor('#ffff')]).toEqual([true, true, false, false]);
  });

  test('every #rrggbb round-trips through rgb(…) to the same channels', () => {
    const channel = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(channel, channel, channel, fc.boolean(), (r, g, b, upper) => {
        const hex = `#${[r, g, b].map((value) => value.toString(16).padStart(2, '0')).join('')}`;
        const text = upper ? hex.toUpperCase() : hex;
        expect(toRgbColor(text)).toBe(`rgb(${r}, ${g}, ${b})`);
        expect(parseColor(toRgbColor(text))).toEqual({ r, g, b });
      }),
      { numRuns: RUNS },
    );
  });
});
