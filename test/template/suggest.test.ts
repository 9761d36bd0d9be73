import { describe, expect, test } from 'vitest';
import { closestName } from '../../src/template/suggest.js';

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
});
