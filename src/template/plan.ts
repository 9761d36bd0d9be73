import { pointerOf } from '../issues.js';
import { hasPlaceholderSyntax, scan, type Segment } from '../placeholder/scan.js';
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
 * `scans` (from the template checks) gives the segments of strings already
 * scanned; a string met twice is planned once and its node shared.
 */
export function planBody(body: JsonValue, scans?: ReadonlyMap<string, readonly Segment[]>): Plan {
  const names: PlanName[] = [];
  const slotOf = new Map<string, number>();
  // Where the walk is; a pointer is built only where a name is first used.
  const trail: (string | number)[] = [];
  const planned = new Map<string, PlanNode>();

  const slot = (name: string, whole: boolean, offset: number): number => {
    let index = slotOf.get(name);
    if (index === undefined) {
      index = names.length;
      slotOf.set(name, index);
      names.push({ name, whole, inText: !whole, path: pointerOf('/description', trail), offset });
    } else {
      const known = names[index] as PlanName;
      if (whole ? !known.whole : !known.inText) names[index] = { ...known, whole: known.whole || whole, inText: known.inText || !whole };
    }
    return index;
  };

  const planText = (node: string): PlanNode => {
    const segments = scans?.get(node) ?? scan(node, '').segments;
    const first = segments[0];
    if (segments.length === 1 && first?.type === 'placeholder') {
      return { kind: 'value', slot: slot(first.name, true, first.offset) };
    }
    const strings: string[] = [''];
    const slots: number[] = [];
    for (const segment of segments) {
      if (segment.type === 'text') strings[strings.length - 1] += segment.value;
      else {
        slots.push(slot(segment.name, false, segment.offset));
        strings.push('');
      }
    }
    return slots.length === 0 ? { kind: 'constant', value: node } : { kind: 'text', strings, slots };
  };

  const plan = (node: JsonValue): PlanNode => {
    if (typeof node === 'string') {
      if (!hasPlaceholderSyntax(node)) return { kind: 'constant', value: node };
      let known = planned.get(node);
      if (known === undefined) {
        known = planText(node);
        planned.set(node, known);
      }
      return known;
    }
    if (node === null || typeof node !== 'object') return { kind: 'constant', value: node };
    if (Array.isArray(node)) {
      const items: PlanNode[] = new Array(node.length);
      for (let index = 0; index < node.length; index++) {
        trail.push(index);
        items[index] = plan(node[index] as JsonValue);
        trail.pop();
      }
      return { kind: 'array', items };
    }
    const keys = Object.keys(node);
    const values: PlanNode[] = new Array(keys.length);
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string;
      trail.push(key);
      values[index] = plan((node as Record<string, JsonValue>)[key] as JsonValue);
      trail.pop();
    }
    return { kind: 'object', keys, values };
  };

  return { root: plan(body), names };
}

/** One member of the objects of a {@link PlanRun}: a column with one entry per object. */
export type RunMember =
  | { readonly kind: 'constant'; readonly values: readonly (string | number | boolean | null)[] }
  | { readonly kind: 'value'; readonly slots: readonly number[] }
  | {
      readonly kind: 'text';
      /** `strings[piece][object]`, `slots[placeholder][object]`. */
      readonly strings: readonly (readonly string[])[];
      readonly slots: readonly (readonly number[])[];
    };

/**
 * Consecutive objects of one array that have the same keys, in the same order,
 * and members of the same kinds (constants, whole values, text with as many
 * placeholders): the fields of a wide template. A renderer builds them in one
 * loop over columns, with code and memory that do not grow with their number.
 */
export interface PlanRun {
  /** Index of the run's first object in the array. */
  readonly start: number;
  readonly length: number;
  readonly keys: readonly string[];
  readonly members: readonly RunMember[];
}

// Shorter stretches are not worth a loop.
const MIN_RUN = 8;

type ObjectNode = Extract<PlanNode, { kind: 'object' }>;

/** The {@link PlanRun}s of at least `minimum` objects among an array's items, in order. */
export function findRuns(items: readonly PlanNode[], minimum: number = MIN_RUN): PlanRun[] {
  const runs: PlanRun[] = [];
  let start = 0;
  while (start < items.length) {
    const first = items[start] as PlanNode;
    if (!isFlat(first)) {
      start++;
      continue;
    }
    let end = start + 1;
    while (end < items.length && sameShape(first, items[end] as PlanNode)) end++;
    if (end - start >= minimum) runs.push(columns(items, start, end));
    start = end;
  }
  return runs;
}

/** An object whose members are all leaves, and which has no `__proto__` key (set apart everywhere). */
function isFlat(node: PlanNode): node is ObjectNode {
  if (node.kind !== 'object') return false;
  for (let index = 0; index < node.keys.length; index++) {
    const kind = (node.values[index] as PlanNode).kind;
    if (kind === 'object' || kind === 'array' || node.keys[index] === '__proto__') return false;
  }
  return true;
}

function sameShape(first: ObjectNode, node: PlanNode): boolean {
  if (node.kind !== 'object' || node.keys.length !== first.keys.length) return false;
  for (let index = 0; index < first.keys.length; index++) {
    if (node.keys[index] !== first.keys[index]) return false;
    const a = first.values[index] as PlanNode;
    const b = node.values[index] as PlanNode;
    if (a.kind !== b.kind) return false;
    if (a.kind === 'text' && a.slots.length !== (b as typeof a).slots.length) return false;
  }
  return true;
}

function columns(items: readonly PlanNode[], start: number, end: number): PlanRun {
  const first = items[start] as ObjectNode;
  const length = end - start;
  const members: RunMember[] = first.values.map((model, member): RunMember => {
    const column = <T>(pick: (node: PlanNode) => T): T[] => {
      const out: T[] = new Array(length);
      for (let index = 0; index < length; index++) out[index] = pick((items[start + index] as ObjectNode).values[member] as PlanNode);
      return out;
    };
    switch (model.kind) {
      case 'constant':
        return { kind: 'constant', values: column((node) => (node as typeof model).value) };
      case 'value':
        return { kind: 'value', slots: column((node) => (node as typeof model).slot) };
      default: {
        const text = model as Extract<PlanNode, { kind: 'text' }>;
        return {
          kind: 'text',
          strings: text.strings.map((_, piece) => column((node) => (node as typeof text).strings[piece] as string)),
          slots: text.slots.map((_, at) => column((node) => (node as typeof text).slots[at] as number)),
        };
      }
    }
  });
  return { start, length, keys: first.keys, members };
}
