import { colorForm, parseColor } from './color.js';
import { type Context, describe, expectKind, type Key, type Kind, nameOf, report } from './context.js';
import { remember } from './remember.js';
import { w3cDateProblem } from './w3c-date.js';

/** A checker for member `key` of the current object, whose value is `value`. */
export type Check = (context: Context, value: unknown, key: Key) => void;

/** A checker that only asks for a kind of value. */
export function kindCheck(kind: Kind): Check {
  return (context, value, key) => {
    expectKind(context, value, kind, key);
  };
}

/**
 * A color member: `rgb(r, g, b)` is Apple's form; hex is read by current
 * Wallet (warning); anything else is refused. One checker per member, each
 * remembering its last color.
 */
export function colorCheck(): Check {
  const formOf = remember(colorForm);
  return (context, value, key) => {
    checkColor(context, value, key, formOf);
  };
}

function checkColor(context: Context, value: unknown, key: Key, formOf: (text: string) => 'rgb' | 'hex' | undefined): void {
  if (!expectKind(context, value, 'string', key)) return;
  const text = value as string;
  const form = formOf(text);
  if (form === 'rgb') return;
  if (form === undefined) {
    report(context, 'error', 'invalid-color', key, `${nameOf(context, key)} must be a color like rgb(60, 65, 76), not ${describe(text)}`);
  } else if (context.warnHexColors) {
    const { r, g, b } = parseColor(text) ?? { r: 0, g: 0, b: 0 };
    report(
      context,
      'warning',
      'hex-color',
      key,
      `${nameOf(context, key)} uses the hex form ${describe(text)}; Apple documents rgb(${r}, ${g}, ${b}) (buildPass converts it)`,
    );
  }
}

/** A W3C date with a time and a time zone. */
export const checkDate: Check = (context, value, key) => {
  if (!expectKind(context, value, 'string', key)) return;
  reportDateProblem(context, value as string, key);
};

/** Reports `invalid-date` when `text` is not a W3C date; `true` when it is one. */
export function reportDateProblem(context: Context, text: string, key: Key): boolean {
  const problem = w3cDateProblem(text);
  if (problem === undefined) return true;
  report(
    context,
    'error',
    'invalid-date',
    key,
    `${nameOf(context, key)} is not a date Wallet reads (${problem}): ${describe(text)}; write e.g. 2026-05-07T10:30-05:00 or 2026-05-07T10:30:00Z`,
  );
  return false;
}

/** An array whose elements are each checked by `element`. */
export function arrayCheck(element: Check): Check {
  return (context, value, key) => {
    if (!expectKind(context, value, 'array', key)) return;
    const list = value as readonly unknown[];
    context.stack.push(key);
    for (let index = 0; index < list.length; index++) element(context, list[index], index);
    context.stack.pop();
  };
}
