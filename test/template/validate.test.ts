import { describe, expect, test } from 'vitest';
import { validateTemplate, type Issue } from '../../src/index.js';
import { clone, draft, eventTicket } from '../fixtures.js';

const codes = (issues: readonly Issue[]) => issues.map((issue) => `${issue.code} ${issue.path}`);

describe('validateTemplate', () => {
  test("the spec's example template is valid, without warnings", () => {
    expect(validateTemplate(eventTicket)).toEqual({ ok: true, issues: [] });
  });

  test.each([null, undefined, 42, 'template', [], true, Symbol('x'), () => 1, 10n])('a non-object (%s) is invalid-template at the root', (value) => {
    const report = validateTemplate(value);
    expect(report.ok).toBe(false);
    expect(report.issues.some((issue) => issue.code === 'invalid-template' && issue.path === '')).toBe(true);
  });

  test('shape errors name the bad member', () => {
    const template = { ...clone(eventTicket), id: '42', passType: 'com.example', placeholder: ['a', 3] };
    const report = validateTemplate(template);
    expect(report.ok).toBe(false);
    const paths = report.issues.filter((issue) => issue.code === 'invalid-template').map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['/id', '/passType', '/placeholder/1']));
  });

  test('a missing member is reported', () => {
    const { placeholder: _, ...template } = clone(eventTicket);
    const report = validateTemplate(template);
    expect(report.ok).toBe(false);
    expect(report.issues.some((issue) => issue.code === 'invalid-template' && /placeholder/.test(issue.message + issue.path))).toBe(true);
  });

  test('undeclared-placeholder, located, with "did you mean"', () => {
    const template = draft(eventTicket);
    template.description.logoText = 'Live: ${evntName}';
    const report = validateTemplate(template);
    expect(report.ok).toBe(false);
    const issue = report.issues.find((i) => i.code === 'undeclared-placeholder');
    expect(issue).toMatchObject({
      severity: 'error',
      path: '/description/logoText',
      placeholder: 'evntName',
      offset: 6,
    });
    expect(issue?.message).toContain('did you mean "eventName"?');
  });

  test('no suggestion when nothing is close', () => {
    const template = draft(eventTicket);
    template.description.logoText = '${zzzzzzzz}';
    const issue = validateTemplate(template).issues.find((i) => i.code === 'undeclared-placeholder');
    expect(issue?.message).not.toContain('did you mean');
  });

  test('unused and duplicate declarations are warnings', () => {
    const template = { ...clone(eventTicket), placeholder: [...eventTicket.placeholder, 'spare', 'venue'] };
    const report = validateTemplate(template);
    expect(report.ok).toBe(true);
    // Document order: /placeholder/6 before /placeholder/7.
    expect(codes(report.issues)).toEqual(['unused-placeholder /placeholder/6', 'duplicate-placeholder /placeholder/7']);
  });

  test('issues come in document order, whatever check found them', () => {
    const template = {
      id: 1,
      name: 'Order',
      formatVersion: 1,
      passType: 'pass.com.example.order',
      description: {
        backgroundColor: 'red',
        generic: { primaryFields: [{ key: 'a', value: '${nmae} ${x' }], secondaryFields: [{ key: 'a', value: '${venue}' }] },
      },
      placeholder: ['name', 'name', 'venue'],
    };
    const report = validateTemplate(template);
    expect(codes(report.issues)).toEqual([
      'invalid-color /description/backgroundColor',
      'undeclared-placeholder /description/generic/primaryFields/0/value',
      'unterminated-placeholder /description/generic/primaryFields/0/value',
      'duplicate-field-key /description/generic/secondaryFields/0/key',
      'unused-placeholder /placeholder/0',
      'duplicate-placeholder /placeholder/1',
    ]);
    // Inside one string, by offset: `${nmae}` at 0 before the unterminated `${x` at 8.
    expect(report.issues.slice(1, 3).map((issue) => issue.offset)).toEqual([0, 8]);
  });

  test('notation errors carry the string path and offset', () => {
    const template = draft(eventTicket);
    template.description.generic.auxiliaryFields[0].value = 'Row ${seat';
    const report = validateTemplate(template);
    expect(report.issues).toContainEqual(
      expect.objectContaining({ code: 'unterminated-placeholder', path: '/description/generic/auxiliaryFields/0/value', offset: 4 }),
    );
  });

  test('keys, numbers and other members are literal: ${x} there is not a placeholder', () => {
    const template = { ...clone(eventTicket), name: '${notAName}', description: { ...clone(eventTicket.description), userInfo: { '${key}': 1 } } };
    expect(validateTemplate(template).issues.filter((issue) => issue.code.includes('placeholder'))).toEqual([]);
  });

  test('Apple rules on static parts use the pass codes, under /description', () => {
    const template = draft(eventTicket);
    template.description.backgroundColor = 'red';
    template.description.generic.primaryFields[0].textAlignment = 'PKTextAlignmentLeft';
    const report = validateTemplate(template);
    expect(report.ok).toBe(false);
    expect(codes(report.issues)).toEqual(
      expect.arrayContaining(['invalid-color /description/backgroundColor', 'text-alignment-not-allowed /description/generic/primaryFields/0/textAlignment']),
    );
  });

  test('parts holding placeholders are not checked until rendered', () => {
    const template = draft(eventTicket);
    template.description.backgroundColor = '${color}';
    template.description.relevantDate = '${when}';
    template.placeholder.push('color', 'when');
    expect(validateTemplate(template)).toEqual({ ok: true, issues: [] });
  });

  test('static duplicate field keys are caught in a template', () => {
    const template = draft(eventTicket);
    template.description.generic.auxiliaryFields[1].key = 'venue';
    expect(codes(validateTemplate(template).issues)).toContain('duplicate-field-key /description/generic/auxiliaryFields/1/key');
  });

  test('identifiers the issuer adds are not required in a template', () => {
    const report = validateTemplate(eventTicket);
    expect(report.issues.filter((issue) => issue.code === 'missing-key')).toEqual([]);
  });

  test('non-JSON values inside description are invalid-template, located', () => {
    const description: Record<string, unknown> = { ...clone(eventTicket.description), maxDistance: Number.NaN, userInfo: { when: new Date(0), f: () => 1 } };
    const report = validateTemplate({ ...clone(eventTicket), description });
    expect(codes(report.issues.filter((issue) => issue.code === 'invalid-template'))).toEqual([
      'invalid-template /description/maxDistance',
      'invalid-template /description/userInfo/when',
      'invalid-template /description/userInfo/f',
    ]);
  });

  test('cycles, deep nesting, throwing getters and proxies give a report, never an exception', () => {
    const cyclic: Record<string, unknown> = { ...clone(eventTicket.description) };
    cyclic['userInfo'] = cyclic;
    let deep: Record<string, unknown> = {};
    const deepRoot = deep;
    for (let index = 0; index < 10_000; index++) deep = (deep['x'] = {}) as Record<string, unknown>;
    const throwing = Object.defineProperty({ ...clone(eventTicket) }, 'description', {
      get() {
        throw new Error('boom');
      },
      enumerable: true,
    });
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    for (const value of [
      { ...clone(eventTicket), description: cyclic },
      { ...clone(eventTicket), description: { userInfo: deepRoot } },
      throwing,
      revocable.proxy,
    ]) {
      const report = validateTemplate(value);
      expect(report.ok).toBe(false);
      expect(report.issues.length).toBeGreaterThan(0);
    }
  });

  test('the template is not changed', () => {
    const template = clone(eventTicket);
    const before = JSON.stringify(template);
    validateTemplate(template);
    expect(JSON.stringify(template)).toBe(before);
  });
});
