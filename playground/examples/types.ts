import type { PassTemplate } from '../../src/index.js';

/** A value as the form holds it: text, or JSON text to parse (numbers, arrays, objects). */
export interface FormValue {
  readonly text: string;
  readonly json: boolean;
}

/** One example the picker offers: a template and values that render it without errors. */
export interface Example {
  readonly id: string;
  readonly title: string;
  readonly template: PassTemplate;
  readonly values: Readonly<Record<string, FormValue>>;
}

/** Shorthand for example values: strings stay text, numbers become JSON values. */
export function formValues(values: Readonly<Record<string, string | number>>): Record<string, FormValue> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, typeof value === 'number' ? { text: String(value), json: true } : { text: value, json: false }]),
  );
}
