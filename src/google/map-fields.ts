import { pointerOf } from '../issues.js';
import type { Field, PassStructure } from '../types.js';
import { GoogleWalletError } from './error.js';
import { type FormattedValue, formatValue, type ValueFormat } from './format.js';
import { escapeIdPart } from './ids.js';
import { languageTag, type Strings, translationsOf } from './localize.js';
import { appendLosses, loss } from './loss.js';
import type { GoogleLoss } from './types.js';

/** Google shows at most this many text modules of an object. */
export const MAX_TEXT_MODULES = 10;

// Front areas first (footerFields: iOS 27 posterGeneric), then the back and iOS 18's additional info (shown with the back).
const AREAS = ['headerFields', 'primaryFields', 'secondaryFields', 'auxiliaryFields', 'footerFields', 'backFields', 'additionalInfoFields'] as const;
const BACK: ReadonlySet<string> = new Set(['backFields', 'additionalInfoFields']);

/** A field and where it sits in the pass. */
export interface PlacedField {
  readonly field: Field;
  readonly pointer: string;
  readonly back: boolean;
}

/**
 * Every field of a style body, front first (header, primary, secondary,
 * auxiliary, footer), then back and additional info. Throws
 * `invalid-pass`, located, for a field without a string key and a string or
 * number value.
 */
export function placedFields(style: string, body: PassStructure): PlacedField[] {
  const placed: PlacedField[] = [];
  if (body === null || typeof body !== 'object') return placed;
  for (const area of AREAS) {
    const fields: unknown = Object.hasOwn(body, area) ? (body as Record<string, unknown>)[area] : undefined;
    if (!Array.isArray(fields)) continue;
    fields.forEach((field: unknown, index) => {
      const pointer = pointerOf('', [style, area, index]);
      const { key, value } = (field ?? {}) as { key?: unknown; value?: unknown };
      if (typeof key !== 'string' || (typeof value !== 'string' && typeof value !== 'number')) {
        throw new GoogleWalletError('invalid-pass', `The field at ${pointer} needs a string key and a string or number value.`);
      }
      placed.push({ field: field as Field, pointer, back: BACK.has(area) });
    });
  }
  return placed;
}

/** What the fields become: text modules, the class's card rows, and the losses. */
export interface MappedFields {
  readonly textModules: Record<string, unknown>[];
  readonly cardRows: Record<string, unknown>[];
  readonly losses: GoogleLoss[];
}

/** The text module id of a field (its key, escaped to Google's characters). */
export function moduleIdOf(field: Field): string {
  return escapeIdPart(String(field.key));
}

/**
 * Fields as text modules (at most 10; the rest are lost), the front ones also
 * placed on the card in rows of three (`maxRows` rows; the rest show only in
 * the details, reported as degraded).
 */
export function mapFields(fields: readonly PlacedField[], maxRows: number, language: string, strings: Strings | undefined, format: ValueFormat): MappedFields {
  const textModules: Record<string, unknown>[] = [];
  const onCard: string[] = [];
  const losses: GoogleLoss[] = [];
  const ids = new Set<string>();
  for (const { field, pointer, back } of fields) {
    const id = moduleIdOf(field);
    if (ids.has(id)) {
      // Wallet refuses two fields of one key (duplicate-field-key); Google would keep one module of the id.
      losses.push(
        loss(
          'google-field-dropped',
          pointer,
          `The key "${field.key}" is used by an earlier field: Google Wallet keeps one text module per key, this field is left out.`,
        ),
      );
      continue;
    }
    if (textModules.length >= MAX_TEXT_MODULES) {
      losses.push(loss('google-field-dropped', pointer, `Google Wallet shows at most ${MAX_TEXT_MODULES} text fields: "${field.key}" is left out.`));
      continue;
    }
    ids.add(id);
    const value = formatValue(field, pointer, format);
    textModules.push(textModule(id, field, value, language, strings, format));
    appendLosses(losses, value.losses);
    appendLosses(losses, fieldLosses(field, pointer));
    if (back) continue;
    if (onCard.length < maxRows * 3) onCard.push(id);
    else
      losses.push(
        loss('google-field-degraded', pointer, `The Google card shows ${maxRows * 3} fields: "${field.key}" is shown in the details below the card instead.`),
      );
  }
  return { textModules, cardRows: cardRows(onCard), losses };
}

function textModule(
  id: string,
  field: Field,
  value: FormattedValue,
  language: string,
  strings: Strings | undefined,
  format: ValueFormat,
): Record<string, unknown> {
  const body = value.text;
  const module: Record<string, unknown> = { id, body };
  const label = labelOf(field);
  if (label !== undefined) module['header'] = label;
  const bodies = value.formatted ? formattedIn(field, strings, format) : translationsOf(body, strings);
  if (bodies.length > 0) module['localizedBody'] = { defaultValue: { language, value: body }, translatedValues: bodies };
  if (label !== undefined) {
    const headers = translationsOf(label, strings);
    if (headers.length > 0) module['localizedHeader'] = { defaultValue: { language, value: label }, translatedValues: headers };
  }
  return module;
}

/**
 * A formatted value in each language the pass is translated into (a number
 * or date reads differently in German): the languages of `strings`, each
 * formatted by Intl in that language.
 */
export function formattedIn(field: Field, strings: Strings | undefined, format: ValueFormat): { language: string; value: string }[] {
  if (strings === undefined) return [];
  const translated: { language: string; value: string }[] = [];
  for (const lproj of Object.keys(strings)) {
    const language = languageTag(lproj);
    try {
      new Intl.NumberFormat(language);
    } catch {
      continue; // an .lproj name Intl cannot read: that language keeps the default text
    }
    translated.push({ language, value: formatValue(field, '', format, language).text });
  }
  return translated;
}

/** A field's label when it is a non-empty string (a label of another type is reported by {@link fieldLosses}). */
export function labelOf(field: Field): string | undefined {
  return typeof field.label === 'string' && field.label !== '' ? field.label : undefined;
}

/** What a field carries that Google's text modules do not. */
export function fieldLosses(field: Field, pointer: string): GoogleLoss[] {
  const losses: GoogleLoss[] = [];
  if (field.label !== undefined && typeof field.label !== 'string') {
    losses.push(loss('google-field-degraded', `${pointer}/label`, `The label of "${field.key}" is not a string: Google Wallet gets the field without it.`));
  }
  if (field.changeMessage !== undefined) {
    losses.push(
      loss(
        'google-change-message-dropped',
        `${pointer}/changeMessage`,
        `Google Wallet has no change message per field; send a message (addMessage) when "${field.key}" changes instead.`,
      ),
    );
  }
  if (field.semantics !== undefined) {
    losses.push(loss('google-semantics-dropped', `${pointer}/semantics`, `Google Wallet has no semantic tags: those of "${field.key}" are left out.`));
  }
  if (field.attributedValue !== undefined) {
    losses.push(
      loss('google-field-degraded', `${pointer}/attributedValue`, `Google Wallet shows the plain value of "${field.key}", not its attributed value.`),
    );
  }
  if (field.dataDetectorTypes !== undefined) {
    losses.push(
      loss(
        'google-field-degraded',
        `${pointer}/dataDetectorTypes`,
        `Google Wallet detects links itself; the data detectors of "${field.key}" are not applied.`,
      ),
    );
  }
  return losses;
}

function item(id: string): Record<string, unknown> {
  return { firstValue: { fields: [{ fieldPath: `object.textModulesData['${id}']` }] } };
}

function cardRows(ids: readonly string[]): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (let start = 0; start < ids.length; start += 3) {
    const [first, second, third] = ids.slice(start, start + 3) as [string, string?, string?];
    if (third !== undefined && second !== undefined) rows.push({ threeItems: { startItem: item(first), middleItem: item(second), endItem: item(third) } });
    else if (second !== undefined) rows.push({ twoItems: { startItem: item(first), endItem: item(second) } });
    else rows.push({ oneItem: { item: item(first) } });
  }
  return rows;
}
