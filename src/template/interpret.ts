import type { PlanNode } from './plan.js';
import { copyJson, setOwn } from './json.js';

/** Renders a plan from the values of its slots (already checked). */
export type Builder = (slots: readonly unknown[]) => unknown;

type Clone = (skeleton: object) => Record<string, unknown>;

// Sixteen copies of one function, on purpose. V8 keeps type feedback per
// function literal: one shared `{ ...skeleton }` would see every object shape
// of every template and go megamorphic (about 75 ns an object); spread over
// sixteen copies, each copy sees a few shapes and stays polymorphic (about
// 15 ns). A shape always goes to the same copy (by a hash of its keys).
const CLONES: readonly Clone[] = [
  (skeleton) => ({ ...skeleton }),
  (skeleton) => ({ ...skeleton }),
  (skeleton) => ({ ...skeleton }),
  (skeleton) => ({ ...skeleton }),
  (skeleton) => ({ ...skeleton }),
  (skeleton) => ({ ...skeleton }),
  (skeleton) => ({ ...skeleton }),
  (skeleton) => ({ ...skeleton }),
  (skeleton) => ({ ...skeleton }),
  (skeleton) => ({ ...skeleton }),
  (skeleton) => ({ ...skeleton }),
  (skeleton) => ({ ...skeleton }),
  (skeleton) => ({ ...skeleton }),
  (skeleton) => ({ ...skeleton }),
  (skeleton) => ({ ...skeleton }),
  (skeleton) => ({ ...skeleton }),
];

/**
 * Turns a plan into a tree of closures: no `eval`, no `new Function`, so it runs
 * under any Content-Security-Policy. Each node's work is decided once, here:
 * an object or array is a copy of a prepared skeleton holding its constant
 * members, into which only the members that depend on values are written.
 */
export function interpretPlan(node: PlanNode): Builder {
  switch (node.kind) {
    case 'constant': {
      const value = node.value;
      return () => value;
    }
    case 'value': {
      const slot = node.slot;
      return (slots) => {
        const value = slots[slot];
        return typeof value === 'object' && value !== null ? copyJson(value) : value;
      };
    }
    case 'text':
      return textBuilder(node.strings, node.slots);
    case 'array':
      return arrayBuilder(node.items);
    case 'object':
      return objectBuilder(node.keys, node.values);
  }
}

function arrayBuilder(items: readonly PlanNode[]): Builder {
  const skeleton: unknown[] = [];
  const at: number[] = [];
  const builders: Builder[] = [];
  items.forEach((item, index) => {
    if (item.kind === 'constant') skeleton.push(item.value);
    else {
      skeleton.push(null);
      at.push(index);
      builders.push(interpretPlan(item));
    }
  });
  const length = at.length;
  return (slots) => {
    const out = skeleton.slice();
    for (let index = 0; index < length; index++) out[at[index] as number] = (builders[index] as Builder)(slots);
    return out;
  };
}

function objectBuilder(keys: readonly string[], values: readonly PlanNode[]): Builder {
  // Constant members are set in the skeleton; the others hold `null` until written,
  // so every copy already has all its keys, in the template's order.
  const skeleton: Record<string, unknown> = {};
  const dynamicKeys: string[] = [];
  const builders: (Builder | undefined)[] = [];
  // A member that is one whole value is read here directly, without a closure call.
  const wholeSlots: number[] = [];
  keys.forEach((key, index) => {
    const value = values[index] as PlanNode;
    if (value.kind === 'constant') setOwn(skeleton, key, value.value);
    else {
      setOwn(skeleton, key, null);
      dynamicKeys.push(key);
      builders.push(value.kind === 'value' ? undefined : interpretPlan(value));
      wholeSlots.push(value.kind === 'value' ? value.slot : -1);
    }
  });
  const clone = CLONES[shapeHash(keys) % CLONES.length] as Clone;
  const length = dynamicKeys.length;
  const member = (slots: readonly unknown[], index: number): unknown => {
    const builder = builders[index];
    if (builder !== undefined) return builder(slots);
    const value = slots[wholeSlots[index] as number];
    return typeof value === 'object' && value !== null ? copyJson(value) : value;
  };
  if (dynamicKeys.includes('__proto__')) {
    return (slots) => {
      const out = clone(skeleton);
      for (let index = 0; index < length; index++) setOwn(out, dynamicKeys[index] as string, member(slots, index));
      return out;
    };
  }
  return (slots) => {
    // Spreading copies with CreateDataProperty: an own `__proto__` key stays an own key.
    const out = clone(skeleton);
    for (let index = 0; index < length; index++) out[dynamicKeys[index] as string] = member(slots, index);
    return out;
  };
}

function shapeHash(keys: readonly string[]): number {
  // FNV-1a over the keys and their separators.
  let hash = 0x811c9dc5;
  for (const key of keys) {
    for (let index = 0; index < key.length; index++) hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
    hash = Math.imul(hash ^ 0xffff, 0x01000193);
  }
  return hash >>> 0;
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
