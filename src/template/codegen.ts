import type { Builder } from './interpret.js';
import { copyJson } from './json.js';
import { findRuns, type Plan, type PlanName, type PlanNode, type PlanRun } from './plan.js';
import { registerFastResolver, type FastResolver } from './values.js';

/** Makes a function from parameter names and a body, as `new Function` does. */
export type FunctionFactory = (...parameterAndBody: string[]) => (...args: unknown[]) => unknown;

/** Knobs of {@link generatePlan}; the defaults suit every real template. */
export interface GenerateOptions {
  /** What turns source into a function (default: the global `Function` constructor). */
  readonly factory?: FunctionFactory;
  /** Largest generated source, in characters, before giving up for the interpreter. */
  readonly maxSource?: number;
  /** Deepest nesting of the plan before giving up for the interpreter. */
  readonly maxDepth?: number;
  /** Longest expression, in characters, kept in one generated function. */
  readonly chunk?: number;
}

// Expressions longer than this move into a function of their own: a few
// kilobytes keeps every generated function small enough for the optimizing
// compilers, and a template of any width still compiles in linear time.
const CHUNK = 4096;
// Past a few hundred kilobytes of source, literal code stops paying: the engine
// leaves most of it unoptimized and the machine code outgrows the caches, so the
// interpreter, whose few closures stay hot, is faster (measured before runs
// existed: 10,000 distinct literal fields, 1.08 ms generated against 0.83 ms
// interpreted). Runs of same-shaped fields (`findRuns`) are a loop of constant
// size, so a wide template of uniform fields stays far below this.
const MAX_SOURCE = 256 * 1024;
const MAX_DEPTH = 100;
// Names read by one generated function.
const RESOLVE_CHUNK = 64;

// When the runtime forbids code generation (a Content-Security-Policy, an edge
// worker), remember it: each refused attempt may send a CSP violation report.
let refusedBy: unknown;

/**
 * Generates one JavaScript function that builds the whole body of a plan as
 * nested object and array literals — the fastest way a JavaScript engine can
 * build a fresh object tree. Returns `undefined` when the runtime forbids
 * `new Function` or the plan is too large or deep, and the caller uses
 * `interpretPlan`, which gives identical output.
 *
 * Nothing from the template or the values becomes code: keys and strings are
 * written with `JSON.stringify` (and U+2028/U+2029 escaped), numbers as
 * numeric literals, slots as indexes, and `__proto__` as a computed key, which
 * defines an own property rather than changing the prototype.
 */
export function generatePlan(plan: Plan, options: GenerateOptions = {}): Builder | undefined {
  const factory = options.factory ?? defaultFactory();
  if (factory === undefined) return undefined;
  const generated = generateCode(plan, options);
  if (generated === undefined) return undefined;
  let make: (...args: unknown[]) => unknown;
  try {
    make = factory('copy', 'proto', 'P', 'D', generated.source);
  } catch {
    if (options.factory === undefined) refusedBy = Function;
    return undefined;
  }
  const { build, resolve, render } = make(copyJson, Object.getPrototypeOf, Object.prototype, generated.data) as {
    build: Builder;
    resolve: FastResolver;
    render: ((checked: FusedRender) => FusedRender) | undefined;
  };
  registerFastResolver(plan.names, resolve);
  if (render !== undefined) fusedRenders.set(plan, render);
  return build;
}

/** A render function: values in, body out. */
export type FusedRender = (values: unknown) => unknown;

/**
 * Reads the values and builds the body in one generated function when every
 * value is plain (a string, a finite number or a boolean, an own property),
 * and hands anything else to `checked`, the checking path.
 */
const fusedRenders = new WeakMap<Plan, (checked: FusedRender) => FusedRender>();

/**
 * The fused render {@link generatePlan} made for a small plan, if any, with
 * `checked` as its fallback: the fastest path, for the common case; its result
 * equals `checked`'s.
 */
export function fusedRenderOf(plan: Plan, checked: FusedRender): FusedRender | undefined {
  return fusedRenders.get(plan)?.(checked);
}

function defaultFactory(): FunctionFactory | undefined {
  const make = Function;
  if (typeof make !== 'function' || refusedBy === make) return undefined;
  return (...parameterAndBody) => new make(...parameterAndBody) as (...args: unknown[]) => unknown;
}

/**
 * The body of the factory function, which takes `copy` (the deep-copy
 * helper), `proto` (`Object.getPrototypeOf`), `P` (`Object.prototype`) and
 * `D` (the columns of the runs, see {@link generateCode}) and returns
 * `{ build, resolve }`: the builder `(s) => body` and a {@link FastResolver}
 * for the plan's names; `undefined` when the plan is over the limits.
 */
export function generateSource(plan: Plan, options: GenerateOptions = {}): string | undefined {
  return generateCode(plan, options)?.source;
}

/** Generated source and the data it reads. */
export interface GeneratedCode {
  readonly source: string;
  /**
   * Columns of the runs of same-shaped objects (`findRuns`): a run is one
   * loop reading its varying strings and slots from here, so a template of
   * ten thousand fields is a few lines of code, not ten thousand literals.
   */
  readonly data: readonly (readonly unknown[])[];
}

/** {@link generateSource}, with the data the source reads as `D`. */
export function generateCode(plan: Plan, options: GenerateOptions = {}): GeneratedCode | undefined {
  const { maxSource = MAX_SOURCE, maxDepth = MAX_DEPTH, chunk = CHUNK } = options;
  const functions: string[] = [];
  const data: (readonly unknown[])[] = [];
  let size = 0;
  const hoist = (expression: string): string => {
    const name = `f${functions.length}`;
    functions.push(`function ${name}(s){return ${expression};}`);
    size += expression.length;
    return `${name}(s)`;
  };
  const define = (code: string): void => {
    functions.push(code);
    size += code.length;
  };
  const names = plan.names;

  // A run: one loop building its objects as literals; a column whose entries
  // are all the same is written into the code, the others are read from `D`.
  const run = (described: PlanRun): string => {
    const name = `R${functions.length}`;
    let columns = '';
    const read = (column: readonly unknown[]): string | undefined => {
      const first = column[0];
      if (column.every((entry) => Object.is(entry, first))) return undefined;
      const variable = `c${data.length}`;
      columns += `,${variable}=D[${data.length}]`;
      data.push(column);
      return `${variable}[i]`;
    };
    const constantOf = (column: readonly (string | number | boolean | null)[]): string => read(column) ?? constant(column[0] ?? null);
    const slotOf = (column: readonly number[]): string => {
      const varying = read(column);
      return varying === undefined ? `s[${slotIndex(column[0] ?? 0)}]` : `s[${varying}]`;
    };
    const members = described.members.map((member, index) => {
      let expression: string;
      switch (member.kind) {
        case 'constant':
          expression = constantOf(member.values);
          break;
        case 'value':
          expression = `(typeof(x=${slotOf(member.slots)})==="object"?copy(x):x)`;
          break;
        default: {
          expression = constantOf(member.strings[0] ?? []);
          member.slots.forEach((column, at) => {
            expression += `+String(${slotOf(column)})+${constantOf(member.strings[at + 1] ?? [])}`;
          });
        }
      }
      return `${key(described.keys[index] as string)}:${expression}`;
    });
    define(`function ${name}(s,o){var x${columns};for(var i=0;i<${described.length};i++)o.push({${members.join(',')}});}`);
    return name;
  };

  let ref: SlotRef = fromArray;
  // A small template (one expression, no helper functions) also gets `render(v)`:
  // the value reads of `resolve` and the body as one function over locals, no slot
  // array in between. `undefined` (no fused render) otherwise.
  const fused = (): string => {
    if (functions.length > 0 || names.length > RESOLVE_CHUNK) return 'undefined';
    ref = fromLocal;
    const body = generate(plan.root, 0);
    ref = fromArray;
    if (body === undefined || functions.length > 0) return 'undefined';
    // `C` is the checking path: the fused render hands it any value it does not take.
    return `function(C){return function render(v){if(typeof v!=="object"||v===null)return C(v);${readLocals(names, 'C(v)')}return ${body};}}`;
  };
  // Returns undefined as soon as a limit is passed, before going deeper.
  const generate = (node: PlanNode, depth: number): string | undefined => {
    if (depth > maxDepth || size > maxSource) return undefined;
    switch (node.kind) {
      case 'constant':
        return constant(node.value);
      case 'value':
        return valueSlot(node.slot, names, ref);
      case 'text':
        return text(node.strings, node.slots, ref);
      case 'array': {
        const runs = findRuns(node.items);
        const group = (from: number, to: number): string | undefined => {
          const items: string[] = [];
          for (let index = from; index < to; index++) {
            const expression = generate(node.items[index] as PlanNode, depth + 1);
            if (expression === undefined) return undefined;
            items.push(expression);
          }
          return container(items, chunk, '[', ']', (parts) => `${parts[0]}.concat(${parts.slice(1).join(',')})`, hoist);
        };
        if (runs.length === 0) return group(0, node.items.length);
        // Runs and the items between them, appended in order to one array.
        let body = 'var o=[];';
        let index = 0;
        for (const described of runs) {
          if (index < described.start) {
            const between = group(index, described.start);
            if (between === undefined) return undefined;
            body += `o=o.concat(${between});`;
          }
          body += `${run(described)}(s,o);`;
          index = described.start + described.length;
        }
        if (index < node.items.length) {
          const after = group(index, node.items.length);
          if (after === undefined) return undefined;
          body += `o=o.concat(${after});`;
        }
        const name = `a${functions.length}`;
        define(`function ${name}(s){${body}return o;}`);
        return `${name}(s)`;
      }
      case 'object': {
        const members: string[] = [];
        for (let index = 0; index < node.keys.length; index++) {
          const expression = generate(node.values[index] as PlanNode, depth + 1);
          if (expression === undefined) return undefined;
          members.push(`${key(node.keys[index] as string)}:${expression}`);
        }
        // Spreading copies with CreateDataProperty, so `__proto__` stays an own key.
        return container(members, chunk, '{', '}', (parts) => `{${parts.map((part) => `...${part}`).join(',')}}`, hoist);
      }
    }
  };

  const root = generate(plan.root, 0);
  if (root === undefined) return undefined;
  const source = `"use strict";${functions.join('')}${resolver(names)}return{build:function build(s){return ${root};},resolve:resolve,render:${fused()}};`;
  return source.length > maxSource ? undefined : { source, data };
}

/** Joins member expressions into a literal, split into hoisted chunks when long. */
function container(
  parts: readonly string[],
  limit: number,
  open: string,
  close: string,
  combine: (chunks: readonly string[]) => string,
  hoist: (expression: string) => string,
): string {
  let total = 0;
  for (const part of parts) total += part.length + 1;
  if (total <= limit) return `${open}${parts.join(',')}${close}`;
  const chunks: string[] = [];
  let group: string[] = [];
  let length = 0;
  for (const part of parts) {
    if (length + part.length > limit && group.length > 0) {
      chunks.push(hoist(`${open}${group.join(',')}${close}`));
      group = [];
      length = 0;
    }
    // A single long member (a long constant text) is a chunk of its own.
    group.push(part);
    length += part.length + 1;
  }
  chunks.push(hoist(`${open}${group.join(',')}${close}`));
  const expression = chunks.length === 1 ? (chunks[0] as string) : combine(chunks);
  return expression.length > limit ? hoist(expression) : expression;
}

/** A JavaScript string literal: JSON's, with the two line terminators JSON allows escaped for older engines. */
export function stringLiteral(text: string): string {
  return JSON.stringify(text).replace(/[\u2028\u2029]/g, (char) => (char === '\u2028' ? '\\u2028' : '\\u2029'));
}

function key(name: string): string {
  // A literal `"__proto__": x` sets the prototype; a computed key defines an own property.
  return name === '__proto__' ? '["__proto__"]' : stringLiteral(name);
}

function constant(value: string | number | boolean | null): string {
  switch (typeof value) {
    case 'string':
      return stringLiteral(value);
    case 'number':
      return numberLiteral(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return 'null';
  }
}

/** A number as source: `-0` keeps its sign (`JSON.stringify(-0)` is `"0"`), parenthesized so it can stand anywhere. */
export function numberLiteral(value: number): string {
  if (Object.is(value, -0)) return '(-0)';
  if (Number.isNaN(value)) return '(0/0)';
  if (!Number.isFinite(value)) return value > 0 ? '(1/0)' : '(-1/0)';
  // `String` of a number is only digits, `.`, `e`, `+` and `-`: never code.
  return value < 0 ? `(${String(value)})` : String(value);
}

/** How generated code names a slot's value: an element of the slot array, or a local. */
type SlotRef = (index: number) => string;
const fromArray: SlotRef = (index) => `s[${slotIndex(index)}]`;
const fromLocal: SlotRef = (index) => `x${slotIndex(index)}`;

function valueSlot(slot: number, names: readonly PlanName[], ref: SlotRef): string {
  const value = ref(slot);
  // A name also used inside text only accepts strings, numbers and booleans, and
  // the fused render reads only those (locals): nothing to copy.
  const use = names[slot];
  if ((use !== undefined && use.inText) || ref === fromLocal) return value;
  return `(typeof ${value}==="object"?copy(${value}):${value})`;
}

/**
 * `function resolve(v)`: reads each name with a constant key (a monomorphic
 * property load, unlike `values[name]` in a loop) and returns the slots when
 * every value is a string, a finite number or a boolean that is an own
 * property; anything else returns `undefined` and the checking path decides.
 *
 * Own without `Object.hasOwn` (a call per name): when `v`'s prototype is
 * `Object.prototype` (or `null`) and `Object.prototype` has no such property,
 * a value found on `v` is `v`'s own. Names `Object.prototype` does have
 * (`toString` …) take the checking path.
 *
 * The prototype is tested twice. First `v.__proto__`, before any value is
 * read: a class instance, or anything else whose chain is not plain, leaves
 * at once, so no getter of its prototype runs. Then `Object.getPrototypeOf`,
 * after the reads, which is exact (an own `__proto__` member cannot fool it);
 * placed there, the optimizing compiler knows `v`'s map from the reads and
 * folds the call to a constant (measured: 1.43× → 1.24× of the hand-written
 * literal on the reference workload).
 */
const resolveHead = (bail: string): string => `var p=v.__proto__;if(p!==P&&p!==undefined)return ${bail};`;
const resolveTail = (bail: string): string => `p=proto(v);if(p!==P&&p!==null)return ${bail};`;

/** Reads one name into `x`; `return <bail>` when its value is not plain. */
function readValue(use: PlanName, bail: string): string {
  const name = stringLiteral(use.name);
  // `x - x === 0` is true exactly for finite numbers (NaN and ±Infinity give NaN).
  return `x=v[${name}];` + `if(!(typeof x==="string"||typeof x==="boolean"||(typeof x==="number"&&x-x===0))||P[${name}]!==undefined)return ${bail};`;
}

/** Reads every name into locals `x0`, `x1` … (a few names: see {@link resolver}); `return <bail>` when one is not plain. */
function readLocals(names: readonly PlanName[], bail: string): string {
  let body = `${resolveHead(bail)}var x;`;
  names.forEach((use, index) => {
    body += `${readValue(use, bail)}var x${index}=x;`;
  });
  return body + resolveTail(bail);
}

function resolver(names: readonly PlanName[]): string {
  if (names.length <= RESOLVE_CHUNK) {
    return `function resolve(v){${readLocals(names, '')}return[${names.map((_, index) => `x${index}`).join(',')}];}`;
  }
  // Many names: chunks that fill one array, so each function stays small enough to optimize.
  let chunks = '';
  const calls: string[] = [];
  for (let start = 0; start < names.length; start += RESOLVE_CHUNK) {
    let body = 'var x;';
    names.slice(start, start + RESOLVE_CHUNK).forEach((use, offset) => {
      body += `${readValue(use, 'false')}o[${start + offset}]=x;`;
    });
    chunks += `function r${calls.length}(v,o){${body}return true;}`;
    calls.push(`!r${calls.length}(v,o)`);
  }
  return `${chunks}function resolve(v){${resolveHead('')}var o=[];${calls.map((call) => `if(${call})return;`).join('')}${resolveTail('')}return o;}`;
}

function text(strings: readonly string[], slots: readonly number[], ref: SlotRef): string {
  let out = stringLiteral(strings[0] ?? '');
  for (let index = 0; index < slots.length; index++) {
    out += `+String(${ref(slots[index] as number)})`;
    const after = strings[index + 1] ?? '';
    if (after !== '') out += `+${stringLiteral(after)}`;
  }
  return out;
}

function slotIndex(slot: number): number {
  // Slots come from the plan, but a generator checks what it writes into code.
  if (!Number.isSafeInteger(slot) || slot < 0) throw new RangeError(`Invalid slot ${String(slot)}`);
  return slot;
}
