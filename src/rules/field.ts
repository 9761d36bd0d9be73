import { type Context, describe, type Dict, expectKind, isDict, isDynamic, type Key, pathOf, quote, report, mayInherit } from './context.js';
import { OPAQUE_OBJECT, type Sites } from './sites.js';
import { reportUnknownKey } from './unknown-key.js';
import { reportDateProblem } from './values.js';
import { looksLikeDate } from './w3c-date.js';
import { addKey, findKey, type SeenKeys } from './seen-keys.js';

/** Which array a field is in: some keys are not allowed (or not meaningful) in some arrays. */
export type FieldArrayKind = 'primary' | 'back' | 'other';

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
const DATA_DETECTORS = new Set(['PKDataDetectorTypePhoneNumber', 'PKDataDetectorTypeLink', 'PKDataDetectorTypeAddress', 'PKDataDetectorTypeCalendarEvent']);
const CURRENCY_CODE = /^[A-Z]{3}$/;
// An HTML tag: `<name` or `</name`. Only `<a href=…>` is supported by Wallet.
const TAG = /<\/?\s*([A-Za-z][A-Za-z0-9-]*)([^>]*)/g;
const HREF = /(?:^|\s)href\s*=/i;

/**
 * What a placeholder may render to in a field for checkField to find no
 * error (see sites.ts); keep in step with checkField. `key` is `'none'`: its
 * uniqueness depends on the other fields. `value` depends on the style keys
 * (checkValueAgainstStyles); with both a date and a number style no value passes.
 */
export const FIELD_SITES: Sites = (keys) => {
  const dated = keys.includes('dateStyle') || keys.includes('timeStyle');
  const numbered = keys.includes('numberStyle') || keys.includes('currencyCode');
  const value = dated ? (numbered ? 'none' : 'date') : numbered ? 'number' : 'text';
  return (key) => {
    switch (key) {
      case 'value':
        return value;
      case 'label':
        return 'string';
      case 'attributedValue':
        return 'text'; // its tags give warnings only
      case 'semantics':
        return OPAQUE_OBJECT;
      default:
        return (FIELD_KEYS as readonly string[]).includes(key) ? 'none' : 'any';
    }
  };
};

/** Checks one array of fields (member `list` of the current style body). */
export function checkFieldList(context: Context, value: unknown, list: string, kind: FieldArrayKind, seen: SeenKeys): void {
  if (!expectKind(context, value, 'array', list)) return;
  const fields = value as readonly unknown[];
  context.stack.push(list);
  for (let index = 0; index < fields.length; index++) checkField(context, fields[index], index, list, kind, seen);
  context.stack.pop();
}

function checkField(context: Context, field: unknown, index: number, list: string, kind: FieldArrayKind, seen: SeenKeys): void {
  if (isDynamic(context, field)) return;
  if (!isDict(field)) {
    report(context, 'error', 'invalid-type', index, `A field must be an object, not ${describe(field)}`);
    return;
  }
  context.stack.push(index);
  let hasKey = false;
  let hasValue = false;
  let dateStyle = '';
  let numberStyle = false;
  let currencyCode = false;
  const inherited = mayInherit(context, field);
  for (const member in field) {
    if (inherited && !Object.hasOwn(field, member)) continue;
    const value = field[member];
    if (value === undefined) continue;
    switch (member) {
      case 'key':
        hasKey = true;
        if (typeof value === 'string') checkDuplicateKey(context, value, list, index, seen);
        else expectKind(context, value, 'string', member);
        break;
      case 'value':
        hasValue = true;
        expectKind(context, value, 'text', member);
        break;
      case 'label':
        expectKind(context, value, 'string', member);
        break;
      case 'attributedValue':
        if (expectKind(context, value, 'text', member) && typeof value === 'string') checkTags(context, value);
        break;
      case 'changeMessage':
        if (expectKind(context, value, 'string', member) && !(value as string).includes('%@')) {
          // Wallet still shows the message, only without the new value in it.
          report(
            context,
            'warning',
            'invalid-change-message',
            member,
            `\`changeMessage\` should contain %@ (where Wallet puts the new value): ${describe(value)}`,
          );
        }
        break;
      case 'textAlignment':
        // Apple does not allow it on primary and back fields, where Wallet lays
        // fields out its own way and ignores it: a warning, unless the value is
        // not one Wallet reads at all (then that error says all).
        if (checkEnum(context, value, member, TEXT_ALIGNMENTS, 'invalid-text-alignment') && kind !== 'other') {
          report(
            context,
            'warning',
            'text-alignment-not-allowed',
            member,
            `\`textAlignment\` has no effect on ${kind} fields (Apple does not allow it there; Wallet ignores it)`,
          );
        }
        break;
      case 'dateStyle':
      case 'timeStyle':
        dateStyle = dateStyle === '' ? member : 'both';
        checkEnum(context, value, member, DATE_STYLES, 'invalid-date-style');
        break;
      case 'ignoresTimeZone':
      case 'isRelative':
        expectKind(context, value, 'boolean', member);
        break;
      case 'numberStyle':
        numberStyle = true;
        checkEnum(context, value, member, NUMBER_STYLES, 'invalid-number-style');
        break;
      case 'currencyCode':
        currencyCode = true;
        if (expectKind(context, value, 'string', member) && !CURRENCY_CODE.test(value as string)) {
          report(
            context,
            'error',
            'invalid-currency-code',
            member,
            `\`currencyCode\` must be an ISO 4217 code of three upper-case letters (e.g. EUR), not ${describe(value)}`,
          );
        }
        break;
      case 'dataDetectorTypes':
        checkDataDetectors(context, value, kind);
        break;
      case 'semantics':
        expectKind(context, value, 'object', member);
        break;
      case 'row':
        if (expectKind(context, value, 'integer', member) && value !== 0 && value !== 1) {
          report(context, 'error', 'out-of-range', member, `\`row\` must be 0 or 1, not ${describe(value)}`);
        }
        break;
      default:
        reportUnknownKey(context, member, FIELD_KEYS, 'a field');
    }
  }
  if (!hasKey) report(context, 'error', 'missing-key', 'key', 'A field needs a `key` (unique across the pass)');
  if (!hasValue) report(context, 'error', 'missing-key', 'value', 'A field needs a `value`');
  if (dateStyle !== '' && dateStyle !== 'both') {
    const other = dateStyle === 'dateStyle' ? 'timeStyle' : 'dateStyle';
    report(context, 'warning', 'incomplete-date-style', dateStyle, `Set \`${other}\` too: Apple asks for both \`dateStyle\` and \`timeStyle\` or neither`);
  }
  if (numberStyle && currencyCode) {
    report(context, 'error', 'number-style-with-currency', 'currencyCode', 'A field has either `numberStyle` or `currencyCode`, not both');
  }
  if (hasValue && (dateStyle !== '' || numberStyle || currencyCode)) checkValueAgainstStyles(context, field, dateStyle !== '', numberStyle, currencyCode);
  context.stack.pop();
}

function checkDuplicateKey(context: Context, key: string, list: string, index: number, seen: SeenKeys): void {
  // Identical texts render identically, so even keys holding placeholders collide.
  const first = findKey(seen, key);
  if (first < 0) {
    addKey(seen, key, list, index);
    return;
  }
  const firstPath = `${pathOf(context, undefined, seen.depth)}/${seen.lists[first] as string}/${seen.indexes[first] as number}/key`;
  report(
    context,
    'error',
    'duplicate-field-key',
    'key',
    `Field key ${describe(key)} is already used at ${firstPath}; Wallet refuses a pass with two fields of one key`,
  );
}

function checkValueAgainstStyles(context: Context, field: Dict, dated: boolean, numberStyle: boolean, currencyCode: boolean): void {
  const value = field['value'];
  if (isDynamic(context, value) || !(typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)))) return;
  if (dated) {
    if (typeof value === 'string' && looksLikeDate(value)) {
      reportDateProblem(context, value, 'value');
    } else {
      report(
        context,
        'error',
        'date-style-needs-date',
        'value',
        `A field with \`dateStyle\` or \`timeStyle\` needs a W3C date as its value (e.g. 2026-05-07T10:30-05:00), not ${describe(value)}`,
      );
    }
  }
  if (typeof value === 'number') return;
  if (numberStyle) {
    report(context, 'error', 'number-style-needs-number', 'value', `A field with \`numberStyle\` needs a number as its value, not ${describe(value)}`);
  } else if (currencyCode) {
    report(context, 'error', 'currency-code-needs-number', 'value', `A field with \`currencyCode\` needs a number as its value, not ${describe(value)}`);
  }
}

type EnumCode = 'invalid-text-alignment' | 'invalid-date-style' | 'invalid-number-style' | 'invalid-data-detector';

/** Reports `code` unless `value` is one of `allowed` (or dynamic); whether it is. */
function checkEnum(context: Context, value: unknown, key: Key, allowed: ReadonlySet<string>, code: EnumCode): boolean {
  if (typeof value === 'string' && (allowed.has(value) || context.isDynamic(value))) return true;
  const name = typeof key === 'number' ? `dataDetectorTypes/${key}` : key;
  report(context, 'error', code, key, `${quote(name)} must be one of ${[...allowed].join(', ')}; not ${describe(value)}`);
  return false;
}

function checkDataDetectors(context: Context, value: unknown, kind: FieldArrayKind): void {
  if (kind !== 'back') {
    report(context, 'warning', 'data-detectors-outside-back', 'dataDetectorTypes', '`dataDetectorTypes` only has an effect on back fields');
  }
  if (!expectKind(context, value, 'array', 'dataDetectorTypes')) return;
  const list = value as readonly unknown[];
  context.stack.push('dataDetectorTypes');
  for (let index = 0; index < list.length; index++) checkEnum(context, list[index], index, DATA_DETECTORS, 'invalid-data-detector');
  context.stack.pop();
}

function checkTags(context: Context, html: string): void {
  if (!html.includes('<')) return;
  TAG.lastIndex = 0;
  for (let match = TAG.exec(html); match !== null; match = TAG.exec(html)) {
    // Closing tags belong to an opening one, which is reported (or fine) already.
    if (match[0][1] === '/') continue;
    if ((match[1] as string).toLowerCase() === 'a' && HREF.test(match[2] as string)) continue;
    report(
      context,
      'warning',
      'unsupported-attributed-value',
      'attributedValue',
      `\`attributedValue\` supports only <a href="…"> links; Wallet does not render ${describe(`${match[0].trim()}>`)}`,
      match.index,
    );
  }
}
