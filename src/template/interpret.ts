import type { PlanNode } from './plan.js';
import { copyJson, setOwn } from './json.js';

/** Renders a plan from the values of its slots (already checked). */
export type Builder = (slots: readonly unknown[]) => unknown;

/**
 * Turns a plan into a tree of closures: no `eval`, no `new Function`, so it runs
 * under any Content-Security-Policy. Each node's work is decided once, here.
 */
export function interpretPlan(node: PlanNode): Builder {
  switch (node.kind) {
    case 'constant': {
      const value = node.value;
      return () => value;
    }
    case 'value': {
      const slot = node.slot;
      return (slots) => copyJson(slots[slot]);
    }
    case 'text':
      return textBuilder(node.strings, node.slots);
    case 'array': {
      const items = node.items.map(interpretPlan);
      const length = items.length;
      return (slots) => {
        const out: unknown[] = new Array(length);
        for (let index = 0; index < length; index++) out[index] = (items[index] as Builder)(slots);
        return out;
      };
    }
    case 'object': {
      const keys = node.keys;
      const values = node.values.map(interpretPlan);
      const length = keys.length;
      if (keys.includes('__proto__')) {
        return (slots) => {
          const out: Record<string, unknown> = {};
          for (let index = 0; index < length; index++) setOwn(out, keys[index] as string, (values[index] as Builder)(slots));
          return out;
        };
      }
      return (slots) => {
        const out: Record<string, unknown> = {};
        for (let index = 0; index < length; index++) out[keys[index] as string] = (values[index] as Builder)(slots);
        return out;
      };
    }
  }
}

function textBuilder(strings: readonly string[], slots: readonly number[]): Builder {
  // The common shapes get their own closure: `prefix${a}suffix` and `${a}${b}`.
  const [head = '', second = '', third = ''] = strings;
  const [a = 0, b = 0] = slots;
  if (slots.length === 1) return (values) => head + String(values[a]) + second;
  if (slots.length === 2) return (values) => head + String(values[a]) + second + String(values[b]) + third;
  return (values) => {
    let out = head;
    for (let index = 0; index < slots.length; index++) out += String(values[slots[index] as number]) + strings[index + 1];
    return out;
  };
}
