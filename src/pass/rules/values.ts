import { isHexColor, parseColor } from '../color.js';
import { type Context, describe, expectKind, type Kind, quote, report } from './context.js';
import { w3cDateProblem } from './w3c-date.js';

/** A checker for one member: its value, its pointer, its name for messages. */
export type Check = (context: Context, value: unknown, path: string, name: string) => void;

/** A checker that only asks for a kind of value. */
export function kindCheck(kind: Kind): Check {
  return (context, value, path, name) => {
    expectKind(context, value, kind, path, quote(name));
  };
}

/** `rgb(r, g, b)` is Apple's form; hex is read by current Wallet (warning); anything else is refused. */
export const checkColor: Check = (context, value, path, name) => {
  if (!expectKind(context, value, 'string', path, quote(name))) return;
  const text = value as string;
  const color = parseColor(text);
  if (color === undefined) {
    report(context, 'error', 'invalid-color', path, `${quote(name)} must be a color like rgb(60, 65, 76), not ${describe(text)}`);
  } else if (context.warnHexColors && isHexColor(text)) {
    report(
      context,
      'warning',
      'hex-color',
      path,
      `${quote(name)} uses the hex form ${describe(text)}; Apple documents rgb(${color.r}, ${color.g}, ${color.b}) (buildPass converts it)`,
    );
  }
};

/** A W3C date with a time and a time zone. */
export const checkDate: Check = (context, value, path, name) => {
  if (!expectKind(context, value, 'string', path, quote(name))) return;
  reportDateProblem(context, value as string, path, name);
};

/** Reports `invalid-date` when `text` is not a W3C date; `true` when it is one. */
export function reportDateProblem(context: Context, text: string, path: string, name: string): boolean {
  const problem = w3cDateProblem(text);
  if (problem === undefined) return true;
  report(
    context,
    'error',
    'invalid-date',
    path,
    `${quote(name)} is not a date Wallet reads (${problem}): ${describe(text)}; write e.g. 2026-05-07T10:30-05:00 or 2026-05-07T10:30:00Z`,
  );
  return false;
}

/** An array whose elements are each checked by `element`. */
export function arrayCheck(element: Check): Check {
  return (context, value, path, name) => {
    if (!expectKind(context, value, 'array', path, quote(name))) return;
    const list = value as readonly unknown[];
    for (let index = 0; index < list.length; index++) {
      element(context, list[index], `${path}/${index}`, `${name}/${index}`);
    }
  };
}
