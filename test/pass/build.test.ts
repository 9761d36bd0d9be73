import { describe, expect, test } from 'vitest';
import { buildPass, compileTemplate, PassValidationError, RenderError, validatePass, type Issue } from '../../src/index.js';
import { draft, eventBody, eventTicket, eventValues, issuer } from '../fixtures.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function thrown(run: () => unknown): Error & { issues: readonly Issue[] } {
  try {
    run();
  } catch (error) {
    return error as Error & { issues: readonly Issue[] };
  }
  throw new Error('expected an error');
}

describe('buildPass', () => {
  test('builds the spec-shaped pass, deterministic with serial and token given', () => {
    const pass = buildPass(eventTicket, eventValues, issuer);
    expect(pass).toEqual({
      ...eventBody,
      foregroundColor: 'rgb(255, 255, 255)',
      serialNumber: issuer.serialNumber,
      passTypeIdentifier: 'pass.com.example.event',
      formatVersion: 1,
      description: 'Event ticket',
      organizationName: 'Example Events',
      teamIdentifier: 'A93A5CM278',
      authenticationToken: issuer.authenticationToken,
      webServiceURL: 'https://passes.example.com/',
    });
    expect(JSON.stringify(buildPass(eventTicket, eventValues, issuer))).toBe(JSON.stringify(pass));
  });

  test("key order follows the spec's Pass table after the body", () => {
    const keys = Object.keys(buildPass(eventTicket, eventValues, issuer));
    expect(keys.slice(-8)).toEqual([
      'serialNumber',
      'passTypeIdentifier',
      'formatVersion',
      'description',
      'organizationName',
      'teamIdentifier',
      'authenticationToken',
      'webServiceURL',
    ]);
  });

  test('serial number and token default to random UUIDs', () => {
    const { serialNumber: _s, authenticationToken: _t, ...rest } = issuer;
    const a = buildPass(eventTicket, eventValues, rest);
    const b = buildPass(eventTicket, eventValues, rest);
    expect(a.serialNumber).toMatch(UUID);
    expect(a.authenticationToken).toMatch(UUID);
    expect(a.serialNumber).not.toBe(b.serialNumber);
    expect(a.authenticationToken).not.toBe(b.authenticationToken);
  });

  test('without webServiceURL neither it nor a token is written', () => {
    const pass = buildPass(eventTicket, eventValues, { teamIdentifier: 'A93A5CM278', organizationName: 'X', authenticationToken: 'a'.repeat(16) });
    expect('webServiceURL' in pass).toBe(false);
    expect('authenticationToken' in pass).toBe(false);
  });

  test('description is the template name unless given; "" is allowed', () => {
    expect(buildPass(eventTicket, eventValues, issuer).description).toBe('Event ticket');
    expect(buildPass(eventTicket, eventValues, { ...issuer, description: '' }).description).toBe('');
  });

  test('a token shorter than 16 characters is an error, even without validation', () => {
    const error = thrown(() => buildPass(eventTicket, eventValues, { ...issuer, authenticationToken: 'short' }, { validate: false }));
    expect(error).toBeInstanceOf(PassValidationError);
    expect(error.issues.map((issue) => issue.code)).toEqual(['short-authentication-token']);
  });

  test('issuer fields of the wrong type are invalid-issuer', () => {
    const error = thrown(() => buildPass(eventTicket, eventValues, { teamIdentifier: 1 } as never));
    expect(error).toBeInstanceOf(PassValidationError);
    expect(error.issues.map((issue) => `${issue.code} ${issue.path}`)).toEqual(['invalid-issuer /teamIdentifier', 'invalid-issuer /organizationName']);
  });

  test('#rgb and #rrggbb become rgb(r, g, b); colors: keep leaves them', () => {
    const t = draft(eventTicket);
    t.description.labelColor = '#F00';
    const pass = buildPass(t, eventValues, issuer) as unknown as Record<string, unknown>;
    expect([pass['foregroundColor'], pass['labelColor']]).toEqual(['rgb(255, 255, 255)', 'rgb(255, 0, 0)']);
    const kept = buildPass(t, eventValues, issuer, { colors: 'keep' }) as unknown as Record<string, unknown>;
    expect([kept['foregroundColor'], kept['labelColor']]).toEqual(['#ffffff', '#F00']);
  });

  test('a rendered pass Wallet would refuse throws PassValidationError with located issues', () => {
    const t = draft(eventTicket);
    Object.assign(t.description.generic.secondaryFields[1], { dateStyle: 'PKDateStyleShort', timeStyle: 'PKDateStyleShort' });
    const error = thrown(() => buildPass(t, { ...eventValues, date: '2026-12-01 20:00' }, issuer));
    expect(error).toBeInstanceOf(PassValidationError);
    expect(error.issues).toContainEqual(expect.objectContaining({ code: 'invalid-date', path: '/generic/secondaryFields/1/value' }));
    expect(() => buildPass(t, { ...eventValues, date: '2026-12-01T20:00+01:00' }, issuer)).not.toThrow();
  });

  test('validate: false skips the check; allowHttp turns plain http into a warning', () => {
    const http = { ...issuer, webServiceURL: 'http://localhost:8080/' };
    expect(thrown(() => buildPass(eventTicket, eventValues, http)).issues.map((issue) => issue.code)).toContain('insecure-web-service-url');
    expect(buildPass(eventTicket, eventValues, http, { validate: false }).webServiceURL).toBe('http://localhost:8080/');
    expect(buildPass(eventTicket, eventValues, http, { allowHttp: true }).webServiceURL).toBe('http://localhost:8080/');
  });

  test('accepts a compiled template, and bad values throw RenderError', () => {
    const compiled = compileTemplate(eventTicket);
    expect(buildPass(compiled, eventValues, issuer)).toEqual(buildPass(eventTicket, eventValues, issuer));
    expect(() => buildPass(compiled, { ...eventValues, seat: null } as never, issuer)).toThrow(RenderError);
  });

  test('every built pass validates', () => {
    expect(validatePass(buildPass(eventTicket, eventValues, issuer))).toEqual({
      ok: true,
      issues: [],
    });
  });

  describe('validation of what placeholders render to', () => {
    const codesOf = (run: () => unknown): string[] => thrown(run).issues.map((issue) => `${issue.code} ${issue.path}`);

    test('dates and colors from values are checked as in validatePass', () => {
      const t = draft(eventTicket);
      Object.assign(t.description, { relevantDate: '${when}', backgroundColor: '${color}' });
      t.placeholder.push('when', 'color');
      const values = { ...eventValues, when: '2026-05-07T10:30-05:00', color: '#3c414c' };
      expect(buildPass(t, values, issuer).backgroundColor).toBe('rgb(60, 65, 76)');
      expect(codesOf(() => buildPass(t, { ...values, when: '2026-05-07T10:30:00+0000' }, issuer))).toEqual(['invalid-date /relevantDate']);
      expect(codesOf(() => buildPass(t, { ...values, color: 'red' }, issuer))).toEqual(['invalid-color /backgroundColor']);
      expect(codesOf(() => buildPass(t, { ...values, eventName: 7 }, issuer))).toEqual(['invalid-type /logoText']);
    });

    test('a field key from a value is checked for uniqueness', () => {
      const t = draft(eventTicket);
      t.description.generic.primaryFields[0].key = '${holder}';
      expect(buildPass(t, { ...eventValues, holder: 'someone' }, issuer).generic?.primaryFields?.[0]?.key).toBe('someone');
      expect(codesOf(() => buildPass(t, { ...eventValues, holder: 'venue' }, issuer))).toEqual(['duplicate-field-key /generic/secondaryFields/0/key']);
    });

    test('a compiled template is validated by what it renders, even after its template object changed', () => {
      const t = draft(eventTicket);
      const compiled = compileTemplate(t);
      t.description.generic.primaryFields[0].key = 'venue';
      t.description.backgroundColor = 'red';
      const pass = buildPass(compiled, eventValues, issuer);
      expect(pass.backgroundColor).toBe('rgb(60, 65, 76)');
      expect(validatePass(pass).ok).toBe(true);
    });

    test('a hand-made compiled template is validated in full', () => {
      const compiled = { template: eventTicket, placeholders: [], render: () => ({ generic: {}, labelColor: 'red' }) };
      expect(codesOf(() => buildPass(compiled as never, {}, issuer))).toEqual(['invalid-color /labelColor']);
    });
  });
});
