import type { Field } from '../types.js';
import { GoogleWalletError } from './error.js';
import { loss } from './loss.js';
import type { GoogleLoss } from './types.js';

/** How values are written for Google, which shows text exactly as it gets it. */
export interface ValueFormat {
  /** BCP 47 language the values are formatted in (Intl). */
  readonly locale: string;
  /** IANA time zone dates are shown in, unless a field `ignoresTimeZone`; `undefined`: the zone the date is written in. */
  readonly timeZone: string | undefined;
}

/** The language values are formatted in when none is given: fixed, never the runtime's own. */
export const DEFAULT_LOCALE = 'en-US';

/** Checks the formatting options: a language and a time zone Intl knows, else `invalid-argument`. */
export function valueFormat(locale: string | undefined, language: string | undefined, timeZone: string | undefined): ValueFormat {
  const chosen = locale ?? language ?? DEFAULT_LOCALE;
  try {
    new Intl.NumberFormat(chosen);
  } catch {
    throw new GoogleWalletError(
      'invalid-argument',
      `The language to format values in must be a BCP 47 tag (such as en-US), not ${JSON.stringify(chosen.slice(0, 40))}.`,
    );
  }
  if (timeZone !== undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone });
    } catch {
      throw new GoogleWalletError(
        'invalid-argument',
        `The time zone must be an IANA zone (such as Europe/Lisbon), not ${JSON.stringify(timeZone.slice(0, 40))}.`,
      );
    }
  }
  return { locale: chosen, timeZone };
}

const DATE_STYLES: Readonly<Record<string, 'short' | 'medium' | 'long' | 'full' | null>> = {
  PKDateStyleNone: null,
  PKDateStyleShort: 'short',
  PKDateStyleMedium: 'medium',
  PKDateStyleLong: 'long',
  PKDateStyleFull: 'full',
};

// A W3C date (Apple's date values): the date, a time, and an offset.
const W3C_DATE = /^(\d{4})-(\d\d)-(\d\d)(?:T(\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?)?(Z|[+-]\d\d:?\d\d)?$/;

/** A field's value as Wallet shows it, formatted; and what could not be applied. */
export interface FormattedValue {
  readonly text: string;
  /** Whether `text` differs from the value as given (then translations are by language, not by `pass.strings`). */
  readonly formatted: boolean;
  readonly losses: GoogleLoss[];
}

const own = (field: Field, key: string): unknown => (Object.hasOwn(field, key) ? (field as unknown as Record<string, unknown>)[key] : undefined);

/**
 * A field's value written as Wallet shows it, in `format.locale`: a number by
 * its `currencyCode` or `numberStyle`, a date by its `dateStyle` and
 * `timeStyle` (in the zone it is written in when it `ignoresTimeZone`, or no
 * `timeZone` is given). What cannot be applied — `isRelative` (Google shows
 * fixed text), spelled-out numbers, a style on a value it does not fit — is a
 * `google-field-degraded` loss at the style's pointer.
 *
 * @example
 * ```ts
 * formatValue({ key: 'b', value: 12.5, currencyCode: 'EUR' }, '/storeCard/primaryFields/0', { locale: 'en-US', timeZone: undefined }).text; // '€12.50'
 * ```
 */
export function formatValue(field: Field, pointer: string, format: ValueFormat, locale: string = format.locale): FormattedValue {
  const value: unknown = field.value;
  const raw = String(value);
  const losses: GoogleLoss[] = [];
  const degraded = (key: string, why: string): void => {
    losses.push(loss('google-field-degraded', `${pointer}/${key}`, `${why}: "${field.key}" is shown as ${JSON.stringify(raw.slice(0, 60))}.`));
  };
  const currency = own(field, 'currencyCode');
  const numberStyle = own(field, 'numberStyle');
  const dateStyle = own(field, 'dateStyle');
  const timeStyle = own(field, 'timeStyle');
  const isRelative = own(field, 'isRelative');
  let text: string | undefined;

  if (currency !== undefined) {
    if (typeof value !== 'number' || typeof currency !== 'string') degraded('currencyCode', 'Wallet applies a currency code only to a number value');
    else {
      try {
        text = new Intl.NumberFormat(locale, { style: 'currency', currency }).format(value);
      } catch {
        degraded('currencyCode', `${JSON.stringify(currency.slice(0, 10))} is not a currency code Intl knows`);
      }
    }
  }
  if (numberStyle !== undefined) {
    if (currency !== undefined && text !== undefined) degraded('numberStyle', 'Wallet shows a currency amount by its currencyCode');
    else if (typeof value !== 'number') degraded('numberStyle', 'Wallet applies a number style only to a number value');
    else if (numberStyle === 'PKNumberStyleDecimal') text = new Intl.NumberFormat(locale).format(value);
    else if (numberStyle === 'PKNumberStylePercent') text = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(value);
    else if (numberStyle === 'PKNumberStyleScientific') text = new Intl.NumberFormat(locale, { notation: 'scientific' }).format(value);
    else if (numberStyle === 'PKNumberStyleSpellOut')
      degraded('numberStyle', 'Google Wallet shows text as given and there is no way to spell a number out in every language');
    else degraded('numberStyle', `${JSON.stringify(String(numberStyle).slice(0, 40))} is not a number style`);
  }
  if (dateStyle !== undefined || timeStyle !== undefined) {
    const styleOf = (key: string, style: unknown): 'short' | 'medium' | 'long' | 'full' | null | undefined => {
      if (style === undefined) return null;
      if (typeof style === 'string' && Object.hasOwn(DATE_STYLES, style)) return DATE_STYLES[style];
      degraded(key, `${JSON.stringify(String(style).slice(0, 40))} is not a date style`);
      return undefined;
    };
    const dates = styleOf('dateStyle', dateStyle);
    const times = styleOf('timeStyle', timeStyle);
    const match = typeof value === 'string' ? W3C_DATE.exec(value) : null;
    if (match === null) degraded(dateStyle !== undefined ? 'dateStyle' : 'timeStyle', 'the value is not a W3C date');
    else if (dates !== undefined && times !== undefined && (dates !== null || times !== null)) {
      text = formatDate(match, dates, times, own(field, 'ignoresTimeZone') === true ? undefined : format.timeZone, locale);
    }
    if (isRelative === true && match !== null) degraded('isRelative', 'Google Wallet shows a fixed date, not one relative to now');
  } else if (isRelative !== undefined && isRelative !== false) {
    degraded('isRelative', 'isRelative applies only to dates');
  }
  return { text: text ?? raw, formatted: text !== undefined && text !== raw, losses };
}

/** A W3C date (its regex match) in Intl's styles: in `timeZone`, or as the wall-clock time it is written in. */
function formatDate(
  match: RegExpExecArray,
  dateStyle: 'short' | 'medium' | 'long' | 'full' | null,
  timeStyle: 'short' | 'medium' | 'long' | 'full' | null,
  timeZone: string | undefined,
  locale: string,
): string {
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const offset = match[7];
  let instant = wall;
  let zone = 'UTC';
  if (timeZone !== undefined && offset !== undefined) {
    // The instant the value names, shown where the holder is taken to be.
    const sign = offset === 'Z' ? 0 : offset.startsWith('-') ? -1 : 1;
    const digits = offset.replace(/[^0-9]/g, '');
    const minutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4)));
    instant = wall - minutes * 60_000;
    zone = timeZone;
  }
  const formatter = new Intl.DateTimeFormat(locale, {
    ...(dateStyle === null ? {} : { dateStyle }),
    ...(timeStyle === null ? {} : { timeStyle }),
    timeZone: zone,
  });
  if (zone !== 'UTC' || timeStyle === null || timeStyle === 'short' || timeStyle === 'medium') return formatter.format(new Date(instant));
  // A wall-clock time formatted "in UTC" must not be named UTC: its zone name is left out.
  return (
    formatter
      .formatToParts(new Date(instant))
      .filter((part) => part.type !== 'timeZoneName')
      .map((part) => part.value)
      .join('')
      .replace(/\s+$/, '')
      // formatToParts writes a narrow no-break space where format() (Node's) writes a space: keep the two alike.
      .replace(/\u202f/g, ' ')
  );
}
