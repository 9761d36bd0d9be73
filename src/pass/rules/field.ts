import { type Context, describe, type Dict, expectKind, isDict, isDynamic, quote, report } from './context.js';
import { reportUnknownKey } from './unknown-key.js';
import { looksLikeDate } from './w3c-date.js';
import { reportDateProblem } from './values.js';

/** Which array a field is in: some keys are not allowed (or not meaningful) in some arrays. */
export type FieldArrayKind = 'primary' | 'back' | 'other';

/** Field keys already seen in one style body, with the pointer of the first occurrence. */
export type SeenKeys = Map<string, string>;

const FIELD_KEYS = [
  'key',
  'value',
  'label',
  'attributedValue',
  'changeMessage',
  'textAlignment',
  'dateStyle',
  'timeStyle',
  'ignoresTimeZone',
  'isRelative',
  'numberStyle',
  'currencyCode',
  'dataDetectorTypes',
  'semantics',
  'row',
] as const;

const TEXT_ALIGNMENTS = new Set(['PKTextAlignmentLeft', 'PKTextAlignmentCenter', 'PKTextAlignmentRight', 'PKTextAlignmentNatural']);
const DATE_STYLES = new Set(['PKDateStyleNone', 'PKDateStyleShort', 'PKDateStyleMedium', 'PKDateStyleLong', 'PKDateStyleFull']);
const NUMBER_STYLES = new Set(['PKNumberStyleDecimal', 'PKNumberStylePercent', 'PKNumberStyleScientific', 'PKNumberStyleSpellOut']);
const DATA_DETECTORS = new Set([
  'PKDataDetectorTypePhoneNumber',
  'PKDataDetectorTypeLink',
  'PKDataDetectorTypeAddress',
  'PKDataDetectorTypeCalendarEvent',
]);
const CURRENCY_CODE = /^[A-Z]{3}$/;
// An HTML tag: `<name` or `</name`. Only `<a href=…>` is supported by Wallet.
const TAG = /<\/?\s*([A-Za-z][A-Za-z0-9-]*)([^>]*)/g;
const HREF = /(?:^|\s)href\s*=/i;

/** Checks one array of fields (`headerFields` …) of a style body. */
export function checkFieldList(context: Context, value: unknown, path: string, name: string, kind: FieldArrayKind, seen: SeenKeys): void {
  if (!expectKind(context, value, 'array', path, quote(name))) return;
  const list = value as readonly unknown[];
  for (let index = 0; index < list.length; index++) checkField(context, list[index], `${path}/${index}`, kind, seen);
}

function checkField(context: Context, field: unknown, path: string, kind: FieldArrayKind, seen: SeenKeys): void {
  if (isDynamic(context, field)) return;
  if (!isDict(field)) {
    report(context, 'error', 'invalid-type', path, `A field must be an object, not ${describe(field)}`);
    return;
  }
  let hasKey = false;
  let hasValue = false;
  let dateStyle = '';
  let numberStyle = false;
  let currencyCode = false;
  for (const member of Object.keys(field)) {
    const value = field[member];
    if (value === undefined) continue;
    const at = `${path}/${member}`;
    switch (member) {
      case 'key':
        hasKey = true;
        if (typeof value === 'string') checkDuplicateKey(context, value, at, seen);
        else expectKind(context, value, 'string', at, '`key`');
        break;
      case 'value':
        hasValue = true;
        expectKind(context, value, 'text', at, '`value`');
        break;
      case 'label':
        expectKind(context, value, 'string', at, '`label`');
        break;
      case 'attributedValue':
        if (expectKind(context, value, 'text', at, '`attributedValue`') && typeof value === 'string') checkTags(context, value, at);
        break;
      case 'changeMessage':
        if (expectKind(context, value, 'string', at, '`changeMessage`') && !(value as string).includes('%@')) {
          report(context, 'error', 'invalid-change-message', at, `\`changeMessage\` must contain %@ (where Wallet puts the new value): ${describe(value)}`);
        }
        break;
      case 'textAlignment':
        if (kind !== 'other') {
          report(context, 'error', 'text-alignment-not-allowed', at, `\`textAlignment\` is not allowed on ${kind} fields`);
        } else {
          checkEnum(context, value, at, 'textAlignment', TEXT_ALIGNMENTS, 'invalid-text-alignment');
        }
        break;
      case 'dateStyle':
      case 'timeStyle':
        dateStyle = dateStyle === '' ? member : 'both';
        checkEnum(context, value, at, member, DATE_STYLES, 'invalid-date-style');
        break;
      case 'ignoresTimeZone':
      case 'isRelative':
        expectKind(context, value, 'boolean', at, quote(member));
        break;
      case 'numberStyle':
        numberStyle = true;
        checkEnum(context, value, at, 'numberStyle', NUMBER_STYLES, 'invalid-number-style');
        break;
      case 'currencyCode':
        currencyCode = true;
        if (expectKind(context, value, 'string', at, '`currencyCode`') && !CURRENCY_CODE.test(value as string)) {
          report(context, 'error', 'invalid-currency-code', at, `\`currencyCode\` must be an ISO 4217 code of three upper-case letters (e.g. EUR), not ${describe(value)}`);
        }
        break;
      case 'dataDetectorTypes':
        checkDataDetectors(context, value, at, kind);
        break;
      case 'semantics':
        expectKind(context, value, 'object', at, '`semantics`');
        break;
      case 'row':
        if (expectKind(context, value, 'integer', at, '`row`') && value !== 0 && value !== 1) {
          report(context, 'error', 'out-of-range', at, `\`row\` must be 0 or 1, not ${describe(value)}`);
        }
        break;
      default:
        reportUnknownKey(context, member, path, FIELD_KEYS, 'a field');
    }
  }
  if (!hasKey) report(context, 'error', 'missing-key', `${path}/key`, 'A field needs a `key` (unique across the pass)');
  if (!hasValue) report(context, 'error', 'missing-key', `${path}/value`, 'A field needs a `value`');
  if (dateStyle !== '' && dateStyle !== 'both') {
    const other = dateStyle === 'dateStyle' ? 'timeStyle' : 'dateStyle';
    report(context, 'warning', 'incomplete-date-style', `${path}/${dateStyle}`, `Set \`${other}\` too: Apple asks for both \`dateStyle\` and \`timeStyle\` or neither`);
  }
  if (numberStyle && currencyCode) {
    report(context, 'error', 'number-style-with-currency', `${path}/currencyCode`, 'A field has either `numberStyle` or `currencyCode`, not both');
  }
  if (hasValue) checkValueAgainstStyles(context, field, path, dateStyle !== '', numberStyle, currencyCode);
}

function checkDuplicateKey(context: Context, key: string, path: string, seen: SeenKeys): void {
  // Identical texts render identically, so even keys holding placeholders collide.
  const first = seen.get(key);
  if (first === undefined) {
    seen.set(key, path);
    return;
  }
  report(context, 'error', 'duplicate-field-key', path, `Field key ${describe(key)} is already used at ${first}; Wallet refuses a pass with two fields of one key`);
}

function checkValueAgainstStyles(context: Context, field: Dict, path: string, dated: boolean, numberStyle: boolean, currencyCode: boolean): void {
  const value = field['value'];
  if (isDynamic(context, value) || !(typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)))) return;
  const at = `${path}/value`;
  if (dated) {
    if (typeof value === 'string' && looksLikeDate(value)) {
      reportDateProblem(context, value, at, 'value');
    } else {
      report(context, 'error', 'date-style-needs-date', at, `A field with \`dateStyle\` or \`timeStyle\` needs a W3C date as its value (e.g. 2026-05-07T10:30-05:00), not ${describe(value)}`);
    }
  }
  if (typeof value === 'number') return;
  if (numberStyle) {
    report(context, 'error', 'number-style-needs-number', at, `A field with \`numberStyle\` needs a number as its value, not ${describe(value)}`);
  } else if (currencyCode) {
    report(context, 'error', 'currency-code-needs-number', at, `A field with \`currencyCode\` needs a number as its value, not ${describe(value)}`);
  }
}

function checkEnum(context: Context, value: unknown, path: string, name: string, allowed: ReadonlySet<string>, code: 'invalid-text-alignment' | 'invalid-date-style' | 'invalid-number-style' | 'invalid-data-detector'): void {
  if (isDynamic(context, value)) return;
  if (typeof value === 'string' && allowed.has(value)) return;
  report(context, 'error', code, path, `${quote(name)} must be one of ${[...allowed].join(', ')}; not ${describe(value)}`);
}

function checkDataDetectors(context: Context, value: unknown, path: string, kind: FieldArrayKind): void {
  if (kind !== 'back') {
    report(context, 'warning', 'data-detectors-outside-back', path, '`dataDetectorTypes` only has an effect on back fields');
  }
  if (!expectKind(context, value, 'array', path, '`dataDetectorTypes`')) return;
  const list = value as readonly unknown[];
  for (let index = 0; index < list.length; index++) {
    checkEnum(context, list[index], `${path}/${index}`, `dataDetectorTypes/${index}`, DATA_DETECTORS, 'invalid-data-detector');
  }
}

function checkTags(context: Context, html: string, path: string): void {
  if (!html.includes('<')) return;
  TAG.lastIndex = 0;
  for (let match = TAG.exec(html); match !== null; match = TAG.exec(html)) {
    // Closing tags belong to an opening one, which is reported (or fine) already.
    if (match[0][1] === '/') continue;
    if ((match[1] as string).toLowerCase() === 'a' && HREF.test(match[2] as string)) continue;
    context.issues.push({
      severity: 'warning',
      code: 'unsupported-attributed-value',
      message: `\`attributedValue\` supports only <a href="…"> links; Wallet does not render ${describe(match[0].trim() + '>')}`,
      path,
      offset: match.index,
    });
  }
}
