import { describe, expect, test } from 'vitest';
import { closestName } from '../src/suggest.js';

describe('closestName (the "did you mean" of undeclared-placeholder)', () => {
  test.each([
    ['evntName', ['eventName', 'venue'], 'eventName'],
    ['levle', ['level', 'gym'], 'level'],
    ['Name', ['name', 'game'], 'name'],
    ['seat', ['seats', 'date'], 'seats'],
    ['zzzzzzzz', ['eventName'], undefined],
    ['ab', ['xy'], undefined],
    ['x', [], undefined],
  ])('%j among %j → %j', (name, candidates, expected) => {
    expect(closestName(name, candidates)).toBe(expected);
  });

  test('ignoreCase and limit, as unknown-key uses them', () => {
    expect(closestName('LOGOTEXT', ['logoText'], { ignoreCase: true, limit: 2 })).toBe('logoText');
    expect(closestName('LOGOTEXT', ['logoText'])).toBeUndefined();
    expect(closestName('lbl', ['label'], { ignoreCase: true, limit: 1 })).toBeUndefined();
    expect(closestName('Key', ['key'], { ignoreCase: true, limit: 0 })).toBe('key');
  });
});
