import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run } from '../../src/cli/main.js';
import { renderTemplate, validatePass } from '../../src/index.js';
import { eventTicket, eventValues, issuer } from '../fixtures.js';
import { captureIo, tempDir } from './io.js';

let dir: string;
let remove: () => void;
beforeAll(() => {
  ({ dir, remove } = tempDir('render'));
  write('template.json', pretty(eventTicket));
  write('values.json', pretty(eventValues));
  write('issuer.json', pretty(issuer));
});
afterAll(() => remove());

const pretty = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
function write(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return name;
}

async function render(...args: string[]) {
  const captured = captureIo(dir);
  const code = await run(['render', ...args], captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

describe('passmint render', () => {
  test('without an issuer: the rendered body, as renderTemplate gives it', async () => {
    const result = await render('template.json', '--values', 'values.json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(renderTemplate(eventTicket, eventValues));
  });

  test('with --issuer: a whole pass that validates; -o writes it', async () => {
    const result = await render('template.json', '--values', 'values.json', '--issuer', 'issuer.json', '-o', 'pass.json');
    expect(result).toEqual({ code: 0, stdout: 'Wrote pass.json\n', stderr: '' });
    const pass = JSON.parse(readFileSync(join(dir, 'pass.json'), 'utf8'));
    expect(validatePass(pass).ok).toBe(true);
    expect(pass).toMatchObject({ serialNumber: issuer.serialNumber, teamIdentifier: 'A93A5CM278', foregroundColor: 'rgb(255, 255, 255)' });
  });

  test('with --team and --org: a pass with a fresh serial number', async () => {
    const result = await render('template.json', '--values', 'values.json', '--team', 'A93A5CM278', '--org', 'Example Events');
    expect(result.code).toBe(0);
    const pass = JSON.parse(result.stdout);
    expect(pass.serialNumber).toMatch(/^[0-9a-f-]{36}$/);
    expect(pass.organizationName).toBe('Example Events');
  });

  test('a missing value points at its use in the template; an unknown one (--strict) at the values file', async () => {
    const { seat: _seat, ...values } = eventValues;
    write('partial.json', pretty({ ...values, extra: 1 }));
    const missing = await render('template.json', '--values', 'partial.json');
    expect(missing.code).toBe(1);
    const text = pretty(eventTicket);
    const line = text.split('\n').findIndex((each) => each.includes('Row ${seat}')) + 1;
    const column = (text.split('\n')[line - 1] as string).indexOf('${seat}') + 1;
    expect(missing.stderr).toBe(`template.json:${line}:${column}: error missing-value No value for placeholder "seat"\n`);
    write('extra.json', pretty({ ...eventValues, extra: 1 }));
    const strict = await render('template.json', '--values', 'extra.json', '--strict');
    expect(strict.code).toBe(1);
    expect(strict.stderr).toMatch(/^extra\.json:8:3: error unknown-value /);
  });

  test('an issuer mistake points at the option or the file member', async () => {
    const short = await render('template.json', '--values', 'values.json', '--issuer', 'issuer.json', '--token', 'short');
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/^--token:1:1: error short-authentication-token /);
    write('http-issuer.json', pretty({ ...issuer, webServiceURL: 'http://passes.example.com/' }));
    const http = await render('template.json', '--values', 'values.json', '--issuer', 'http-issuer.json');
    expect(http.code).toBe(1);
    expect(http.stderr).toMatch(/^http-issuer\.json:4:3: error insecure-web-service-url /);
    const allowed = await render('template.json', '--values', 'values.json', '--issuer', 'http-issuer.json', '--allow-http');
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toMatch(/^http-issuer\.json:4:3: warning insecure-web-service-url /);
  });

  test('a rendered value Wallet would refuse points at the template member that made it', async () => {
    const text = pretty({
      ...eventTicket,
      description: { ...eventTicket.description, backgroundColor: '${color}' },
      placeholder: [...eventTicket.placeholder, 'color'],
    });
    write('bad-color.json', text);
    const line = text.split('\n').findIndex((each) => each.includes('"backgroundColor"')) + 1;
    write('bad-color-values.json', pretty({ ...eventValues, color: 'blue' }));
    const result = await render('bad-color.json', '--values', 'bad-color-values.json', '--issuer', 'issuer.json');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^bad-color\\.json:${line}:5: error invalid-color `));
  });

  test('a template with errors is not rendered: its issues are located in it', async () => {
    const text = pretty({ ...eventTicket, description: { ...eventTicket.description, logoText: 'Hi ${eventName' } });
    write('unterminated.json', text);
    const result = await render('unterminated.json', '--values', 'values.json');
    expect(result.code).toBe(1);
    const line = text.split('\n').findIndex((each) => each.includes('"logoText"')) + 1;
    const column = (text.split('\n')[line - 1] as string).indexOf('${eventName') + 1;
    expect(result.stderr).toMatch(new RegExp(`^unterminated\\.json:${line}:${column}: error unterminated-placeholder `));
  });

  test('values that are not JSON stop with the place; a duplicate key is a warning and rendering goes on', async () => {
    write('broken-values.json', '{ "eventName": "Concert",, }');
    expect(await render('template.json', '--values', 'broken-values.json')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^broken-values\.json:1:26: error invalid-json /),
    });
    write('twice-values.json', pretty(eventValues).replace('"venue": "Hall A",', '"venue": "Hall A",\n  "venue": "Hall B",'));
    const twice = await render('template.json', '--values', 'twice-values.json');
    expect(twice.code).toBe(0);
    expect(twice.stderr).toMatch(/^twice-values\.json:4:3: warning duplicate-key /);
    expect(JSON.parse(twice.stdout).generic.secondaryFields[0].value).toBe('Hall B');
  });

  test('values that are not an object (an array, a string) are refused as such, not as missing values', async () => {
    write('array-values.json', pretty(['Concert']));
    write('string-values.json', '"Concert"\n');
    for (const file of ['array-values.json', 'string-values.json']) {
      const result = await render('template.json', '--values', file);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`${file}:1:1: error invalid-values the values file must hold a JSON object: { "placeholder name": value, … }\n`);
    }
  });

  test('usage errors: no --values, a pass instead of a template, half an issuer', async () => {
    expect(await render('template.json')).toMatchObject({ code: 2, stderr: expect.stringContaining('--values <values.json>') });
    expect(await render('template.json', '--values', 'values.json', '--team', 'A93A5CM278')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--org NAME'),
    });
    write('not-template.json', pretty({ formatVersion: 1 }));
    expect(await render('not-template.json', '--values', 'values.json')).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('passmint lint not-template.json'),
    });
  });
});
