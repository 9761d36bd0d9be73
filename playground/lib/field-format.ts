import type { Field } from '../../src/index.js';

const DATE_STYLES: Readonly<Record<string, 'short' | 'medium' | 'long' | 'full' | undefined>> = {
  PKDateStyleShort: 'short',
  PKDateStyleMedium: 'medium',
  PKDateStyleLong: 'long',
  PKDateStyleFull: 'full',
};

/**
 * A field's value as Wallet would show it: dates by `dateStyle`/`timeStyle`,
 * numbers by `numberStyle` or `currencyCode`, in the browser's locale.
 *
 * @example
 * ```ts
 * formatFieldValue({ key: 'balance', value: 12.5, currencyCode: 'EUR' }); // '€12.50'
 * ```
 */
export function formatFieldValue(field: Field): string {
  const { value } = field;
  try {
    if (typeof value === 'number') {
      if (field.currencyCode !== undefined) return new Intl.NumberFormat(undefined, { style: 'currency', currency: field.currencyCode }).format(value);
      switch (field.numberStyle) {
        case 'PKNumberStylePercent':
          return new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 2 }).format(value);
        case 'PKNumberStyleScientific':
          return new Intl.NumberFormat(undefined, { notation: 'scientific' }).format(value);
        default:
          return new Intl.NumberFormat().format(value);
      }
    }
    const dateStyle = field.dateStyle === undefined ? undefined : DATE_STYLES[field.dateStyle];
    const timeStyle = field.timeStyle === undefined ? undefined : DATE_STYLES[field.timeStyle];
    if (dateStyle !== undefined || timeStyle !== undefined) {
      // ignoresTimeZone: the time as written in the value, in the event's own zone, wherever the phone is.
      const wall = field.ignoresTimeZone === true ? wallClock(String(value)) : undefined;
      const date = wall ?? new Date(value);
      if (!Number.isNaN(date.getTime())) {
        return new Intl.DateTimeFormat(undefined, {
          ...(dateStyle === undefined ? {} : { dateStyle }),
          ...(timeStyle === undefined ? {} : { timeStyle }),
          ...(wall === undefined ? {} : { timeZone: 'UTC' }),
        }).format(date);
      }
    }
  } catch {
    // An invalid currency code is reported by validatePass; the preview just shows the raw value.
  }
  return String(value);
}

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?/;

/** The date and time written in an ISO 8601 string, as a UTC instant (its offset, if any, set aside). */
function wallClock(value: string): Date | undefined {
  const match = WALL_CLOCK.exec(value);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
  return new Date(Date.UTC(year!, month! - 1, day!, hour!, minute!, second!));
}

const ALIGN: Readonly<Record<string, string>> = {
  PKTextAlignmentLeft: 'left',
  PKTextAlignmentCenter: 'center',
  PKTextAlignmentRight: 'right',
  PKTextAlignmentNatural: 'start',
};

/** CSS `text-align` for a field's `textAlignment` (`start` when unset, as Wallet's natural alignment). */
export function cssTextAlign(alignment: unknown): string {
  return (typeof alignment === 'string' ? ALIGN[alignment] : undefined) ?? 'start';
}
