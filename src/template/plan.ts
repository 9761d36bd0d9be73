import { pointerOf } from '../issues.js';
import { hasPlaceholderSyntax, scan } from '../placeholder/scan.js';
import type { JsonValue } from '../types.js';

/**
 * A compiled template body: a tree whose leaves are constants, whole-value
 * placeholders, or text with placeholders in it. Slots index the template's
 * list of used names (`Plan.names`), so a render reads each value once.
 */
export type PlanNode =
  | { readonly kind: 'constant'; readonly value: string | number | boolean | null }
  | { readonly kind: 'value'; readonly slot: number }
  | { readonly kind: 'text'; readonly strings: readonly string[]; readonly slots: readonly number[] }
  | { readonly kind: 'array'; readonly items: readonly PlanNode[] }
  | { readonly kind: 'object'; readonly keys: readonly string[]; readonly values: readonly PlanNode[] };

/** How one used name is used, which decides the values it accepts. */
export interface PlanName {
  readonly name: string;
  /** Used as a whole string value somewhere: any JSON value is accepted there. */
  readonly whole: boolean;
  /** Used inside longer text somewhere: only strings, numbers and booleans are accepted. */
  readonly inText: boolean;
  /** Where it is first used, for located errors. */
  readonly path: string;
  readonly offset: number;
}

/** A template body ready to render. */
export interface Plan {
  readonly root: PlanNode;
  readonly names: readonly PlanName[];
}

/**
 * Turns a template body that passed `validateTemplate` into a {@link Plan}.
 * `text` nodes hold `strings.length === slots.length + 1` literal pieces.
 */
export function planBody(body: JsonValue): Plan {
  const names: PlanName[] = [];
  const slotOf = new Map<string, number>();
  const slot = (name: string, whole: boolean, path: string, offset: number): number => {
    let index = slotOf.get(name);
    if (index === undefined) {
      index = names.length;
      slotOf.set(name, index);
      names.push({ name, whole, inText: !whole, path, offset });
    } else {
      const known = names[index] as PlanName;
      if (whole ? !known.whole : !known.inText) names[index] = { ...known, whole: known.whole || whole, inText: known.inText || !whole };
    }
    return index;
  };

  // Where the walk is; a pointer is built only for the strings that hold placeholders.
  const trail: (string | number)[] = [];
  const plan = (node: JsonValue): PlanNode => {
    if (typeof node === 'string') {
      if (!hasPlaceholderSyntax(node)) return { kind: 'constant', value: node };
      const path = pointerOf('/description', trail);
      const { segments } = scan(node, path);
      const first = segments[0];
      if (segments.length === 1 && first?.type === 'placeholder') {
        return { kind: 'value', slot: slot(first.name, true, path, first.offset) };
      }
      const strings: string[] = [''];
      const slots: number[] = [];
      for (const segment of segments) {
        if (segment.type === 'text') strings[strings.length - 1] += segment.value;
        else {
          slots.push(slot(segment.name, false, path, segment.offset));
          strings.push('');
        }
      }
      return slots.length === 0 ? { kind: 'constant', value: node } : { kind: 'text', strings, slots };
    }
    if (node === null || typeof node !== 'object') return { kind: 'constant', value: node };
    const at = (key: string | number, value: JsonValue): PlanNode => {
      trail.push(key);
      const planned = plan(value);
      trail.pop();
      return planned;
    };
    if (Array.isArray(node)) return { kind: 'array', items: node.map((item, index) => at(index, item)) };
    const keys = Object.keys(node);
    return { kind: 'object', keys, values: keys.map((key) => at(key, (node as Record<string, JsonValue>)[key] as JsonValue)) };
  };

  return { root: plan(body), names };
}
