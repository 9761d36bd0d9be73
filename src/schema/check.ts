import type { Issue, IssueCode } from '../issues.js';
import { joinPointer } from '../issues.js';
import { KIND_TEXT } from '../rules/context.js';
import { type SchemaError, type SchemaValidator, validateEventSchema, validatePassSchema, validateTemplateSchema } from './validators.js';

// Member name → code for a value the schema refuses (enum, const, pattern …).
const VALUE_CODES: ReadonlyMap<string, IssueCode> = new Map<string, IssueCode>([
  ['foregroundColor', 'invalid-color'],
  ['backgroundColor', 'invalid-color'],
  ['labelColor', 'invalid-color'],
  ['footerBackgroundColor', 'invalid-color'],
  ['relevantDate', 'invalid-date'],
  ['expirationDate', 'invalid-date'],
  ['date', 'invalid-date'],
  ['startDate', 'invalid-date'],
  ['endDate', 'invalid-date'],
  ['textAlignment', 'invalid-text-alignment'],
  ['dateStyle', 'invalid-date-style'],
  ['timeStyle', 'invalid-date-style'],
  ['numberStyle', 'invalid-number-style'],
  ['currencyCode', 'invalid-currency-code'],
  ['transitType', 'invalid-transit-type'],
  ['dataDetectorTypes', 'invalid-data-detector'],
  ['format', 'invalid-barcode-format'],
  ['formatVersion', 'invalid-format-version'],
  ['passTypeIdentifier', 'invalid-pass-type-identifier'],
  ['serialNumber', 'empty-serial-number'],
  ['authenticationToken', 'short-authentication-token'],
  ['message', 'nfc-message-too-long'],
]);

// What a value of the code's kind must look like, for messages.
const FORMS: { readonly [code: string]: string } = {
  'invalid-color': 'a color: rgb(r, g, b) with integers 0–255, #rrggbb or #rgb',
  'invalid-date': 'a W3C date with a time zone, e.g. 2026-05-07T10:30-05:00 or 2026-05-07T10:30:00Z',
  'invalid-currency-code': 'an ISO 4217 code of three upper-case letters (e.g. EUR)',
  'invalid-pass-type-identifier': '"pass." followed by a reverse-DNS name (e.g. pass.com.example.membership-card)',
  'empty-serial-number': 'a non-empty string',
  'short-authentication-token': 'at least 16 characters long',
  'nfc-message-too-long': 'at most 64 bytes of UTF-8',
};

const STYLE_KEYS: readonly string[] = ['boardingPass', 'coupon', 'eventTicket', 'generic', 'storeCard'];

// When several checks fail on one member, the most specific one is reported.
const PRIORITY: { readonly [code: string]: number } = {
  'invalid-type': 3,
  'date-style-needs-date': 2,
  'number-style-needs-number': 2,
  'currency-code-needs-number': 2,
  'invalid-pass': 1,
};

interface Mapped {
  readonly code: IssueCode;
  readonly path: string;
  readonly message: string;
}

/**
 * Checks a value against `pass.schema.json` (ahead-of-time compiled, no eval)
 * and turns the failures into issues with passmint's codes: `missing-key` for a
 * required member (its path is the missing member's), `invalid-type`, the
 * specific code of a refused enum or pattern (`invalid-barcode-format`,
 * `invalid-color` …), `out-of-range`, else `invalid-pass`. One issue per
 * member. Never throws.
 *
 * `validatePass` does not call it: Apple's rules cover the schema at the same
 * paths. This is the schema's independent view that the property tests hold
 * the rules to (`test/pass/validate.property.test.ts`); no entry point ships it.
 *
 * @example
 * ```ts
 * checkPassShape({ generic: {} })[0];
 * // { severity: 'error', code: 'missing-key', path: '/description', message: '`description` is required' }
 * ```
 */
export function checkPassShape(value: unknown): Issue[] {
  try {
    return passShapeIssues(value);
  } catch {
    return [unreadable('invalid-pass', 'The pass')];
  }
}

function passShapeIssues(value: unknown): Issue[] {
  const errors = run(validatePassSchema, value);
  if (errors === undefined) return [unreadable('invalid-pass', 'The pass')];
  if (errors.length === 0) return [];
  const best = new Map<string, { readonly issue: Issue; readonly priority: number }>();
  for (const error of errors) {
    for (const mapped of mapPassError(error, value)) {
      const priority = PRIORITY[mapped.code] ?? 4;
      const current = best.get(mapped.path);
      if (current === undefined || priority > current.priority) {
        best.set(mapped.path, { issue: { severity: 'error', ...mapped }, priority });
      }
    }
  }
  return [...best.values()].map((entry) => entry.issue);
}

/**
 * Checks a value against `pass-template.schema.json`: `id` an integer, `name`
 * a string, `formatVersion` 1, `passType` a string starting `pass.`,
 * `description` an object, `placeholder` an array of strings, all six
 * required. Every issue is `invalid-template`, at the path of the bad member.
 * Never throws.
 *
 * @example
 * ```ts
 * checkTemplateShape({ id: 1, name: 'x', formatVersion: 1, passType: 'com.x', description: {}, placeholder: [] });
 * // [{ severity: 'error', code: 'invalid-template', path: '/passType', message: '`passType` must start with "pass."' }]
 * ```
 */
export function checkTemplateShape(value: unknown): Issue[] {
  return checkSimple(validateTemplateSchema, value, 'A template', (error, name) => {
    if (error.keyword === 'const') return { code: 'invalid-template', message: `${name} must be 1` };
    if (error.keyword === 'pattern') return { code: 'invalid-template', message: `${name} must start with "pass."` };
    return { code: 'invalid-template', message: genericMessage(error, name) };
  });
}

/**
 * Checks a value against `event.schema.json`: `id` UUID-shaped, `type` a
 * non-empty string, `created` `YYYY-MM-DDTHH:MM:SSZ`, `data` an object, all
 * four required; for the known types, their data members as non-empty strings
 * (`webhook.verify` → `token`; `pass.*` and `registration.*` →
 * `serialNumber`, `passTypeIdentifier`). Only own properties count. Codes:
 * `missing-key`, `invalid-type`, `invalid-date` (for `created`),
 * `invalid-value` (an `id` that is not UUID-shaped, an empty string). Issues
 * come in member order: the event, `id`, `type`, `created`, `data`, then the
 * members of `data` (missing ones first). Never throws.
 *
 * @example
 * ```ts
 * checkEventShape({ id: 'x', type: 'pass.created', created: '2026-05-07T10:30:00Z', data: {} }).map((issue) => issue.path);
 * // ['/id', '/data/serialNumber', '/data/passTypeIdentifier']
 * ```
 */
export function checkEventShape(value: unknown): Issue[] {
  const order = ['', '/id', '/type', '/created', '/data'];
  const rank = (path: string): number => (order.includes(path) ? order.indexOf(path) : order.length);
  // The `if` of a conditional fails along with its `then`, whose failures say what is wrong.
  const validate: SchemaValidator = (data) => {
    const valid = validateEventSchema(data);
    validate.errors = validateEventSchema.errors?.filter((error) => error.keyword !== 'if') ?? null;
    return valid;
  };
  try {
    const issues = checkSimple(validate, value, 'An event', (error, name) => {
      const { keyword, instancePath, params } = error;
      const path = keyword === 'required' ? joinPointer(instancePath, String(params['missingProperty'])) : instancePath;
      // A member of a known type's data (the schema's allOf): the message names the type.
      if (path.startsWith('/data/')) {
        const code = keyword === 'required' ? 'missing-key' : keyword === 'type' ? 'invalid-type' : 'invalid-value';
        return { code, message: `A ${String((value as { type: unknown }).type)} event needs \`data.${displayName(path)}\` as a non-empty string` };
      }
      if (keyword === 'required') return { code: 'missing-key', message: genericMessage(error, name) };
      if (keyword === 'type') return { code: 'invalid-type', message: genericMessage(error, name) };
      if (path === '/created') return { code: 'invalid-date', message: '`created` must be a UTC time written YYYY-MM-DDTHH:MM:SSZ' };
      if (path === '/type') return { code: 'invalid-value', message: '`type` must be a non-empty string' };
      return { code: 'invalid-value', message: `${name} must be a UUID-shaped string` };
    });
    // ajv reports the allOf (data) failures before the required members; sort() is stable.
    return issues.sort((a, b) => rank(a.path) - rank(b.path));
  } catch {
    // Reading `type` again for a message threw (a getter or proxy).
    return [unreadable('invalid-value', 'An event')];
  }
}

function run(validator: SchemaValidator, value: unknown): readonly SchemaError[] | undefined {
  try {
    return validator(value) ? [] : (validator.errors ?? []);
  } catch {
    // A getter or proxy trap threw while the validator read the value.
    return undefined;
  }
}

function unreadable(code: IssueCode, what: string): Issue {
  return { severity: 'error', code, path: '', message: `${what} could not be read (a property access threw)` };
}

function checkSimple(
  validator: SchemaValidator,
  value: unknown,
  what: string,
  map: (error: SchemaError, name: string) => { code: IssueCode; message: string },
): Issue[] {
  const errors = run(validator, value);
  if (errors === undefined) return [unreadable(what === 'A template' ? 'invalid-template' : 'invalid-value', what)];
  const issues: Issue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const path = error.keyword === 'required' ? joinPointer(error.instancePath, String(error.params['missingProperty'])) : error.instancePath;
    if (seen.has(path)) continue;
    seen.add(path);
    const name = path === '' ? what : `\`${displayName(path)}\``;
    const { code, message } = map(error, name);
    issues.push({ severity: 'error', code, path, message: path === '' && error.keyword === 'type' ? `${what} must be an object` : message });
  }
  return issues;
}

function mapPassError(error: SchemaError, root: unknown): readonly Mapped[] {
  const { keyword, schemaPath, instancePath, params } = error;
  const name = lastName(instancePath);
  const quoted = `\`${displayName(instancePath)}\``;
  switch (keyword) {
    case 'required': {
      const missing = String(params['missingProperty']);
      const path = joinPointer(instancePath, missing);
      // The branches of the style choice are reported as one issue below.
      if (schemaPath.startsWith('#/oneOf/')) return [];
      return [{ code: 'missing-key', path, message: `\`${missing}\` is required` }];
    }
    case 'dependentRequired': {
      const missing = String(params['missingProperty']);
      const present = String(params['property']);
      return [{ code: 'unpaired-web-service', path: joinPointer(instancePath, missing), message: `\`${present}\` is set, so \`${missing}\` is required too` }];
    }
    case 'oneOf':
      return styleIssues(instancePath, params['passingSchemas'], root);
    case 'not':
      // The posterGeneric branch of the style choice: reported with the choice below.
      if (schemaPath.startsWith('#/oneOf/')) return [];
      if (schemaPath.includes('/dependentSchemas/numberStyle/')) {
        return [
          { code: 'number-style-with-currency', path: `${instancePath}/currencyCode`, message: 'A field has either `numberStyle` or `currencyCode`, not both' },
        ];
      }
      return [{ code: 'code128-in-barcode', path: instancePath, message: 'PKBarcodeFormatCode128 is allowed only inside `barcodes`' }];
    case 'type': {
      const needs = neededBy(schemaPath, name);
      if (needs !== undefined)
        return [
          {
            code: needs,
            path: instancePath,
            message: `${quoted} must be ${needs === 'date-style-needs-date' ? 'a W3C date' : 'a number'} for the field's style`,
          },
        ];
      return [{ code: 'invalid-type', path: instancePath, message: instancePath === '' ? 'A pass must be an object' : genericMessage(error, quoted) }];
    }
    case 'minimum':
    case 'maximum':
      return [{ code: 'out-of-range', path: instancePath, message: genericMessage(error, quoted) }];
    default: {
      if (neededBy(schemaPath, name) === 'date-style-needs-date') {
        return [{ code: 'date-style-needs-date', path: instancePath, message: `${quoted} must be a W3C date for the field's style` }];
      }
      const code = VALUE_CODES.get(name) ?? 'invalid-pass';
      const form = FORMS[code];
      return [{ code, path: instancePath, message: form === undefined ? genericMessage(error, quoted) : `${quoted} must be ${form}` }];
    }
  }
}

function neededBy(schemaPath: string, name: string): IssueCode | undefined {
  // A field's value meets the date definition only through dateStyle/timeStyle.
  if (name === 'value' && schemaPath.startsWith('#/$defs/date/')) return 'date-style-needs-date';
  if (!schemaPath.includes('/dependentSchemas/')) return undefined;
  if (schemaPath.includes('/dependentSchemas/numberStyle/')) return 'number-style-needs-number';
  if (schemaPath.includes('/dependentSchemas/currencyCode/')) return 'currency-code-needs-number';
  if (schemaPath.includes('/dependentSchemas/dateStyle/') || schemaPath.includes('/dependentSchemas/timeStyle/')) return 'date-style-needs-date';
  return undefined;
}

function styleIssues(path: string, passing: unknown, root: unknown): Mapped[] {
  if (!Array.isArray(passing)) {
    return [{ code: 'missing-style', path, message: `A pass needs one style key: ${STYLE_KEYS.join(', ')} (and may add posterGeneric)` }];
  }
  const present = typeof root === 'object' && root !== null ? Object.keys(root).filter((key) => STYLE_KEYS.includes(key)) : [];
  const [first, ...extra] = present;
  return extra.map((key) => ({
    code: 'multiple-styles' as const,
    path: joinPointer(path, key),
    message: `A pass has exactly one style; \`${key}\` comes after \`${first ?? ''}\``,
  }));
}

function genericMessage(error: SchemaError, quoted: string): string {
  const { params } = error;
  switch (error.keyword) {
    case 'required':
      return `\`${String(params['missingProperty'])}\` is required`;
    case 'type': {
      const types = Array.isArray(params['type']) ? (params['type'] as unknown[]) : [params['type']];
      return `${quoted} must be ${types.map((type) => (KIND_TEXT as { readonly [type: string]: string })[String(type)] ?? String(type)).join(' or ')}`;
    }
    case 'enum':
      return `${quoted} must be one of ${(params['allowedValues'] as unknown[]).join(', ')}`;
    case 'const':
      return `${quoted} must be ${JSON.stringify(params['allowedValue'])}`;
    case 'minimum':
    case 'maximum':
      return `${quoted} must be ${String(params['comparison'])} ${String(params['limit'])}`;
    case 'minLength':
      return `${quoted} must be at least ${String(params['limit'])} characters long`;
    case 'maxLength':
      return `${quoted} must be at most ${String(params['limit'])} characters long`;
    case 'pattern':
      return `${quoted} does not have the required form (${String(params['pattern'])})`;
    default:
      return `${quoted} is not valid (${error.keyword})`;
  }
}

// The member named in messages: the last token, with its parent for an array index.
function displayName(pointer: string): string {
  const tokens = pointer.split('/');
  const last = unescape(tokens[tokens.length - 1] ?? '');
  if (/^\d+$/.test(last) && tokens.length > 2) return `${unescape(tokens[tokens.length - 2] ?? '')}/${last}`;
  return last;
}

// The member a value belongs to: for an array element, the array's name.
function lastName(pointer: string): string {
  const tokens = pointer.split('/');
  const last = unescape(tokens[tokens.length - 1] ?? '');
  return /^\d+$/.test(last) && tokens.length > 2 ? unescape(tokens[tokens.length - 2] ?? '') : last;
}

function unescape(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}
