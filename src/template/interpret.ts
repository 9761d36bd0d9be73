import { findRuns, type PlanNode, type PlanRun, type RunMember } from './plan.js';
import { copyJson, setOwn } from './json.js';

/** Renders a plan from the values of its slots (already checked). */
export type Builder = (slots: readonly unknown[]) => unknown;

/** A copy of a skeleton with up to three members written (the keys not given are not written). */
type Clone = (skeleton: object, k0?: string, v0?: unknown, k1?: string, v1?: unknown, k2?: string, v2?: unknown) => Record<string, unknown>;

// Sixteen copies of one function, on purpose. V8 keeps type feedback per
// function literal: one shared `{ ...skeleton }` would see every object shape
// of every template and go megamorphic (about 75 ns an object), and so would
// one shared `out[key] = value` store; spread over sixteen copies, each copy
// sees a few shapes and keys and stays fast (a polymorphic copy, named stores).
// Most objects of a pass have one to three members to write: the copy and the
// stores are one call. An object always goes to the same copy (by a hash of
// its keys and the keys written).
const CLONES: readonly Clone[] = [
  (skeleton, k0, v0, k1, v1, k2, v2) => {
    const out: Record<string, unknown> = { ...skeleton };
    if (k0 !== undefined) out[k0] = v0;
    if (k1 !== undefined) out[k1] = v1;
    if (k2 !== undefined) out[k2] = v2;
    return out;
  },
  (skeleton, k0, v0, k1, v1, k2, v2) => {
    const out: Record<string, unknown> = { ...skeleton };
    if (k0 !== undefined) out[k0] = v0;
    if (k1 !== undefined) out[k1] = v1;
    if (k2 !== undefined) out[k2] = v2;
    return out;
  },
  (skeleton, k0, v0, k1, v1, k2, v2) => {
    const out: Record<string, unknown> = { ...skeleton };
    if (k0 !== undefined) out[k0] = v0;
    if (k1 !== undefined) out[k1] = v1;
    if (k2 !== undefined) out[k2] = v2;
    return out;
  },
  (skeleton, k0, v0, k1, v1, k2, v2) => {
    const out: Record<string, unknown> = { ...skeleton };
    if (k0 !== undefined) out[k0] = v0;
    if (k1 !== undefined) out[k1] = v1;
    if (k2 !== undefined) out[k2] = v2;
    return out;
  },
  (skeleton, k0, v0, k1, v1, k2, v2) => {
    const out: Record<string, unknown> = { ...skeleton };
    if (k0 !== undefined) out[k0] = v0;
    if (k1 !== undefined) out[k1] = v1;
    if (k2 !== undefined) out[k2] = v2;
    return out;
  },
  (skeleton, k0, v0, k1, v1, k2, v2) => {
    const out: Record<string, unknown> = { ...skeleton };
    if (k0 !== undefined) out[k0] = v0;
    if (k1 !== undefined) out[k1] = v1;
    if (k2 !== undefined) out[k2] = v2;
    return out;
  },
  (skeleton, k0, v0, k1, v1, k2, v2) => {
    const out: Record<string, unknown> = { ...skeleton };
    if (k0 !== undefined) out[k0] = v0;
    if (k1 !== undefined) out[k1] = v1;
    if (k2 !== undefined) out[k2] = v2;
    return out;
  },
  (skeleton, k0, v0, k1, v1, k2, v2) => {
    const out: Record<string, unknown> = { ...skeleton };
    if (k0 !== undefined) out[k0] = v0;
    if (k1 !== undefined) out[k1] = v1;
    if (k2 !== undefined) out[k2] = v2;
    return out;
  },
  (skeleton, k0, v0, k1, v1, k2, v2) => {
    const out: Record<string, unknown> = { ...skeleton };
    if (k0 !== undefined) out[k0] = v0;
    if (k1 !== undefined) out[k1] = v1;
    if (k2 !== undefined) out[k2] = v2;
    return out;
  },
  (skeleton, k0, v0, k1, v1, k2, v2) => {
    const out: Record<string, unknown> = { ...skeleton };
    if (k0 !== undefined) out[k0] = v0;
    if (k1 !== undefined) out[k1] = v1;
    if (k2 !== undefined) out[k2] = v2;
    return out;
  },
  (skeleton, k0, v0, k1, v1, k2, v2) => {
    const out: Record<string, unknown> = { ...skeleton };
    if (k0 !== undefined) out[k0] = v0;
    if (k1 !== undefined) out[k1] = v1;
    if (k2 !== undefined) out[k2] = v2;
    return out;
  },
  (skeleton, k0, v0, k1, v1, k2, v2) => {
    const out: Record<string, unknown> = { ...skeleton };
    if (k0 !== undefined) out[k0] = v0;
    if (k1 !== undefined) out[k1] = v1;
    if (k2 !== undefined) out[k2] = v2;
    return out;
  },
  (skeleton, k0, v0, k1, v1, k2, v2) => {
    const out: Record<string, unknown> = { ...skeleton };
    if (k0 !== undefined) out[k0] = v0;
    if (k1 !== undefined) out[k1] = v1;
    if (k2 !== undefined) out[k2] = v2;
    return out;
  },
  (skeleton, k0, v0, k1, v1, k2, v2) => {
    const out: Record<string, unknown> = { ...skeleton };
    if (k0 !== undefined) out[k0] = v0;
    if (k1 !== undefined) out[k1] = v1;
    if (k2 !== undefined) out[k2] = v2;
    return out;
  },
  (skeleton, k0, v0, k1, v1, k2, v2) => {
    const out: Record<string, unknown> = { ...skeleton };
    if (k0 !== undefined) out[k0] = v0;
    if (k1 !== undefined) out[k1] = v1;
    if (k2 !== undefined) out[k2] = v2;
    return out;
  },
  (skeleton, k0, v0, k1, v1, k2, v2) => {
    const out: Record<string, unknown> = { ...skeleton };
    if (k0 !== undefined) out[k0] = v0;
    if (k1 !== undefined) out[k1] = v1;
    if (k2 !== undefined) out[k2] = v2;
    return out;
  },
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
  const runs = findRuns(items);
  if (runs.length > 0) return partsBuilder(items, runs);
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
  // Small arrays of built items (the field lists): a literal, no skeleton to copy.
  if (length === items.length && length <= 3) {
    const [first, second, third] = builders as [Builder, Builder, Builder];
    if (length === 1) return (slots) => [first(slots)];
    if (length === 2) return (slots) => [first(slots), second(slots)];
    if (length === 3) return (slots) => [first(slots), second(slots), third(slots)];
  }
  return (slots) => {
    const out = skeleton.slice();
    for (let index = 0; index < length; index++) out[at[index] as number] = (builders[index] as Builder)(slots);
    return out;
  };
}

/** Appends to `out` what one part of an array renders to. */
type Part = (slots: readonly unknown[], out: unknown[]) => void;

/** An array with runs of same-shaped objects: each run is one loop, the other items one part each. */
function partsBuilder(items: readonly PlanNode[], runs: readonly PlanRun[]): Builder {
  const parts: Part[] = [];
  const single = (item: PlanNode): Part => {
    if (item.kind === 'constant') {
      const value = item.value;
      return (_, out) => void out.push(value);
    }
    const builder = interpretPlan(item);
    return (slots, out) => void out.push(builder(slots));
  };
  let index = 0;
  for (const run of runs) {
    for (; index < run.start; index++) parts.push(single(items[index] as PlanNode));
    parts.push(runPart(run));
    index = run.start + run.length;
  }
  for (; index < items.length; index++) parts.push(single(items[index] as PlanNode));
  const count = parts.length;
  return (slots) => {
    const out: unknown[] = [];
    for (let part = 0; part < count; part++) (parts[part] as Part)(slots, out);
    return out;
  };
}

/** What one non-constant member of a run's object holds, for its object number `index`. */
type Member = (slots: readonly unknown[], index: number) => unknown;

/**
 * A run: one skeleton per object (its constants in place, the same keys and
 * so the same hidden class for all), copied and completed in one loop. No
 * closure per object: the memory a render walks is the skeletons and columns.
 */
function runPart(run: PlanRun): Part {
  const { keys, members, length } = run;
  const skeletons: Record<string, unknown>[] = new Array(length);
  for (let index = 0; index < length; index++) {
    const skeleton: Record<string, unknown> = {};
    for (let member = 0; member < keys.length; member++) {
      const column = members[member] as RunMember;
      setOwn(skeleton, keys[member] as string, column.kind === 'constant' ? column.values[index] : null);
    }
    skeletons[index] = skeleton;
  }
  const dynamicKeys: string[] = [];
  const dynamic: Member[] = [];
  members.forEach((column, member) => {
    if (column.kind === 'constant') return;
    dynamicKeys.push(keys[member] as string);
    dynamic.push(memberBuilder(column));
  });
  const clone = CLONES[shapeHash([...keys, ...dynamicKeys]) % CLONES.length] as Clone;
  if (dynamic.length === 1) {
    const onlyKey = dynamicKeys[0] as string;
    const only = dynamic[0] as Member;
    // The common field: one member that depends on values (one call, a named store).
    return (slots, out) => {
      for (let index = 0; index < length; index++) out.push(clone(skeletons[index] as object, onlyKey, only(slots, index)));
    };
  }
  const count = dynamic.length;
  return (slots, out) => {
    for (let index = 0; index < length; index++) {
      const object = clone(skeletons[index] as object);
      for (let member = 0; member < count; member++) object[dynamicKeys[member] as string] = (dynamic[member] as Member)(slots, index);
      out.push(object);
    }
  };
}

function memberBuilder(column: Exclude<RunMember, { kind: 'constant' }>): Member {
  if (column.kind === 'value') {
    const at = column.slots;
    return (slots, index) => {
      const value = slots[at[index] as number];
      return typeof value === 'object' && value !== null ? copyJson(value) : value;
    };
  }
  const { strings, slots: columns } = column;
  const [head = [], second = [], third = []] = strings;
  const [a = [], b = []] = columns;
  if (columns.length === 1) return (slots, index) => (head[index] as string) + String(slots[a[index] as number]) + (second[index] as string);
  if (columns.length === 2) {
    return (slots, index) =>
      (head[index] as string) + String(slots[a[index] as number]) + (second[index] as string) + String(slots[b[index] as number]) + (third[index] as string);
  }
  return (slots, index) => {
    let out = head[index] as string;
    for (let at = 0; at < columns.length; at++)
      out += String(slots[(columns[at] as readonly number[])[index] as number]) + ((strings[at + 1] as readonly string[])[index] as string);
    return out;
  };
}

function objectBuilder(keys: readonly string[], values: readonly PlanNode[]): Builder {
  // Constant members are set in the skeleton; the others hold `null` until written,
  // so every copy already has all its keys, in the template's order.
  const skeleton: Record<string, unknown> = {};
  const dynamicKeys: string[] = [];
  const dynamicNodes: PlanNode[] = [];
  keys.forEach((key, index) => {
    const value = values[index] as PlanNode;
    if (value.kind === 'constant') setOwn(skeleton, key, value.value);
    else {
      setOwn(skeleton, key, null);
      dynamicKeys.push(key);
      dynamicNodes.push(value);
    }
  });
  const length = dynamicKeys.length;
  const hasProto = dynamicKeys.includes('__proto__');
  const clone = CLONES[shapeHash([...keys, ...dynamicKeys]) % CLONES.length] as Clone;
  const [k0 = '', k1 = '', k2 = ''] = dynamicKeys;
  if (length === 0) return () => clone(skeleton);
  if (length === 1 && !hasProto) return oneMember(skeleton, k0, dynamicNodes[0] as PlanNode, clone);
  // A member that is one whole value is read directly (`memberValue`), without a closure of its own.
  const builders: (Builder | undefined)[] = [];
  const wholeSlots: number[] = [];
  for (const node of dynamicNodes) {
    builders.push(node.kind === 'value' ? undefined : interpretPlan(node));
    wholeSlots.push(node.kind === 'value' ? node.slot : -1);
  }
  if (!hasProto && length <= 3) {
    const [b0, b1, b2] = builders;
    const [s0 = 0, s1 = 0, s2 = 0] = wholeSlots;
    if (length === 2) return (slots) => clone(skeleton, k0, memberValue(slots, b0, s0), k1, memberValue(slots, b1, s1));
    return (slots) => clone(skeleton, k0, memberValue(slots, b0, s0), k1, memberValue(slots, b1, s1), k2, memberValue(slots, b2, s2));
  }
  const member = (slots: readonly unknown[], index: number): unknown => memberValue(slots, builders[index], wholeSlots[index] as number);
  if (hasProto) {
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

/** A member of an object: built by `builder`, or the whole value of slot `slot`. */
function memberValue(slots: readonly unknown[], builder: Builder | undefined, slot: number): unknown {
  if (builder !== undefined) return builder(slots);
  const value = slots[slot];
  return typeof value === 'object' && value !== null ? copyJson(value) : value;
}

/** An object with one member that depends on values (a field's `value`): a copy and one store, in one call. */
function oneMember(skeleton: object, key: string, node: PlanNode, clone: Clone): Builder {
  if (node.kind === 'value') {
    const slot = node.slot;
    return (slots) => {
      const value = slots[slot];
      return clone(skeleton, key, typeof value === 'object' && value !== null ? copyJson(value) : value);
    };
  }
  if (node.kind === 'text' && node.slots.length === 1) {
    const [head = '', tail = ''] = node.strings;
    const slot = node.slots[0] as number;
    return (slots) => clone(skeleton, key, head + String(slots[slot]) + tail);
  }
  const build = interpretPlan(node);
  return (slots) => clone(skeleton, key, build(slots));
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
