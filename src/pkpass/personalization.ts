// personalization.json: the signup form of a rewards-enrollment pass
// (Apple's Wallet Developer Guide, "Rewards Enrollment").

import type { Issue } from '../issues.js';
import { joinPointer } from '../issues.js';
import { parseJsonText } from '../json-text.js';
import { describe } from '../rules/context.js';

/** The user data a signup form can ask for: Apple's `PKPassPersonalizationField…` names. */
export const PERSONALIZATION_FIELDS: readonly PersonalizationField[] = [
  'PKPassPersonalizationFieldName',
  'PKPassPersonalizationFieldPostalCode',
  'PKPassPersonalizationFieldEmailAddress',
  'PKPassPersonalizationFieldPhoneNumber',
];

/**
 * One piece of user data a signup form asks for.
 *
 * @example
 * ```ts
 * const field: PersonalizationField = 'PKPassPersonalizationFieldEmailAddress';
 * ```
 */
export type PersonalizationField =
  | 'PKPassPersonalizationFieldName'
  | 'PKPassPersonalizationFieldPostalCode'
  | 'PKPassPersonalizationFieldEmailAddress'
  | 'PKPassPersonalizationFieldPhoneNumber';

/**
 * The contents of `personalization.json`, the file that makes an NFC pass a
 * rewards-enrollment (personalizable) pass: Wallet shows a signup form with
 * `description`, asks for the fields listed, and shows `termsAndConditions`.
 *
 * @example
 * ```ts
 * const personalization: Personalization = {
 *   requiredPersonalizationFields: ['PKPassPersonalizationFieldName', 'PKPassPersonalizationFieldEmailAddress'],
 *   description: 'Join Example Rewards and earn a point for every coffee.',
 *   termsAndConditions: 'Points expire after a year.',
 * };
 * const bytes = new TextEncoder().encode(JSON.stringify(personalization)); // files['personalization.json']
 * ```
 */
export interface Personalization {
  /** What the form asks for; at least one field. */
  readonly requiredPersonalizationFields: readonly PersonalizationField[];
  /** The program, shown on the form under the `personalizationLogo` image. */
  readonly description: string;
  /** Shown by the form; the user accepts them by signing up. */
  readonly termsAndConditions?: string;
}

const POINTER = '/personalization.json';
const KNOWN_KEYS = new Set(['requiredPersonalizationFields', 'description', 'termsAndConditions']);

/**
 * Appends the issues of a `personalization.json` file to `issues`: JSON (a
 * trailing comma and a repeated key are warnings, as in pass.json), an
 * object, `requiredPersonalizationFields` a non-empty array of Apple's field
 * names, `description` a non-empty string, `termsAndConditions` a string
 * when given, other keys `unknown-key` warnings. Paths start
 * `/personalization.json`.
 */
export function checkPersonalizationJson(bytes: Uint8Array, issues: Issue[]): void {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    issues.push({ severity: 'error', code: 'invalid-json', message: 'personalization.json is not UTF-8', path: POINTER });
    return;
  }
  const parsed = parseJsonText(text);
  for (const issue of parsed.issues) issues.push({ ...issue, message: `personalization.json: ${issue.message}`, path: `${POINTER}${issue.path}` });
  if (!('value' in parsed)) return;
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    issues.push({ severity: 'error', code: 'invalid-json', message: 'personalization.json is not a JSON object', path: POINTER });
    return;
  }
  const record = value as Record<string, unknown>;
  const member = (key: string): unknown => (Object.hasOwn(record, key) ? record[key] : undefined);
  const at = (key: string): string => joinPointer(POINTER, key);

  const fields = member('requiredPersonalizationFields');
  if (fields === undefined) {
    issues.push({
      severity: 'error',
      code: 'missing-key',
      message: 'personalization.json needs "requiredPersonalizationFields": the user data the signup form asks for',
      path: at('requiredPersonalizationFields'),
    });
  } else if (!Array.isArray(fields) || fields.length === 0) {
    issues.push({
      severity: 'error',
      code: 'invalid-type',
      message: `"requiredPersonalizationFields" must be a non-empty array of ${PERSONALIZATION_FIELDS.join(', ')}`,
      path: at('requiredPersonalizationFields'),
    });
  } else {
    fields.forEach((field: unknown, index) => {
      if (typeof field === 'string' && (PERSONALIZATION_FIELDS as readonly string[]).includes(field)) return;
      issues.push({
        severity: 'error',
        code: 'invalid-personalization-field',
        message: `${describe(field)} is not a field Wallet asks for; use ${PERSONALIZATION_FIELDS.join(', ')}`,
        path: joinPointer(at('requiredPersonalizationFields'), index),
      });
    });
  }

  const description = member('description');
  if (description === undefined) {
    issues.push({
      severity: 'error',
      code: 'missing-key',
      message: 'personalization.json needs "description": the program, shown on the signup form',
      path: at('description'),
    });
  } else if (typeof description !== 'string' || description.trim() === '') {
    issues.push({ severity: 'error', code: 'invalid-type', message: '"description" must be a non-empty string', path: at('description') });
  }
  const terms = member('termsAndConditions');
  if (terms !== undefined && typeof terms !== 'string') {
    issues.push({ severity: 'error', code: 'invalid-type', message: '"termsAndConditions" must be a string', path: at('termsAndConditions') });
  }
  for (const key of Object.keys(record)) {
    if (!KNOWN_KEYS.has(key))
      issues.push({ severity: 'warning', code: 'unknown-key', message: `personalization.json: ${describe(key)} is not a key Wallet reads`, path: at(key) });
  }
}
