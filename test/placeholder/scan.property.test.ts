import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { scanPlaceholders, type Segment } from '../../src/placeholder/scan.js';
import { notationText, placeholderName, RUNS } from '../arbitraries.js';

const join = (segments: readonly Segment[]): string => segments.map((segment) => (segment.type === 'text' ? segment.value : `\${${segment.name}}`)).join('');

describe('scanPlaceholders properties', () => {
  test('segments joined give the input back, for any string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme' }), notationText), (text) => {
        expect(join(scanPlaceholders(text).segments)).toBe(text);
      }),
      { numRuns: RUNS },
    );
  });

  test('each segment sits at its offset', () => {
    fc.assert(
      fc.property(notationText, (text) => {
        for (const segment of scanPlaceholders(text).segments) {
          const piece = segment.type === 'text' ? segment.value : `\${${segment.name}}`;
          expect(text.startsWith(piece, segment.offset)).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });

  test('valid names written as ${name} come back as placeholders, in order', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.string().map((s) => s.replaceAll('$', '')),
            placeholderName,
          ),
        ),
        (parts) => {
          const text = parts.map(([literal, name]) => `${literal}\${${name}}`).join('');
          const { segments, issues } = scanPlaceholders(text);
          expect(issues).toEqual([]);
          expect(segments.filter((s) => s.type === 'placeholder').map((s) => (s.type === 'placeholder' ? s.name : ''))).toEqual(parts.map(([, name]) => name));
        },
      ),
      { numRuns: RUNS },
    );
  });

  test('every issue points at a "${" in the text', () => {
    fc.assert(
      fc.property(notationText, (text) => {
        for (const issue of scanPlaceholders(text).issues) {
          expect(text.slice(issue.offset, (issue.offset ?? 0) + 2)).toBe('${');
        }
      }),
      { numRuns: RUNS },
    );
  });
});
