import type { PlanNode } from '../template/plan.js';
import { hasPlaceholderSyntax } from '../placeholder/scan.js';
import { isPlainBarcodeText } from '../rules/barcode-capacity.js';
import { colorForm } from '../rules/color.js';
import { type Dict, hasKind, type Key } from '../rules/context.js';
import type { Accept, Sites } from '../rules/sites.js';
import { w3cDateProblem } from '../rules/w3c-date.js';

/** A rendered value to test: where it is (keys from the pass) and what it must be. */
export interface SiteCheck {
  path: readonly Key[];
  readonly accepts: Accept[];
}

/**
 * The tests that tell whether a body rendered from `root` holds no error at
 * its dynamic parts, located with `sites`; `undefined` when some dynamic part
 * is at a `'none'` location (or can never pass: text where a number is asked).
 * A string holding `${` is dynamic, as in the template checks.
 */
export function siteChecks(root: PlanNode, sites: Sites): SiteCheck[] | undefined {
  const checks: SiteCheck[] = [];
  // A value rendered whole is the same value at each of its places: one test
  // of it, at its shortest path (each key read from the pass costs a lookup).
  const bySlot = new Map<number, SiteCheck>();
  const path: Key[] = [];
  const site = (spec: Sites, slot?: number): boolean => {
    const accept = typeof spec === 'string' ? spec : 'none';
    // Text with a placeholder in it always renders to a string.
    if (accept === 'any' || (slot === undefined && (accept === 'string' || accept === 'text'))) return true;
    if (accept === 'none' || (slot === undefined && accept === 'number')) return false;
    const known = slot === undefined ? undefined : bySlot.get(slot);
    if (known === undefined) {
      const check: SiteCheck = { path: [...path], accepts: [accept] };
      checks.push(check);
      if (slot !== undefined) bySlot.set(slot, check);
    } else {
      known.accepts.push(accept);
      if (path.length < known.path.length) known.path = [...path];
    }
    return true;
  };
  const visit = (node: PlanNode, spec: Sites): boolean => {
    if (spec === 'any') return true;
    switch (node.kind) {
      case 'constant':
        return typeof node.value !== 'string' || !hasPlaceholderSyntax(node.value) || site(spec);
      case 'text':
        return site(spec);
      case 'value':
        return site(spec, node.slot);
      case 'array': {
        const each = typeof spec === 'object' ? spec.each : 'none';
        return node.items.every((item, index) => at(index, item, each));
      }
      case 'object': {
        const member = typeof spec === 'function' ? spec(node.keys, (key) => constantMember(node, key)) : () => 'none' as const;
        return node.keys.every((key, index) => at(key, node.values[index] as PlanNode, member(key)));
      }
    }
  };
  const at = (key: Key, node: PlanNode, spec: Sites): boolean => {
    path.push(key);
    const ok = visit(node, spec);
    path.pop();
    return ok;
  };
  return visit(root, sites) ? checks : undefined;
}

/** The value of member `key` of an object node when it is a constant (no placeholder in it), else `undefined`. */
function constantMember(node: Extract<PlanNode, { kind: 'object' }>, key: string): unknown {
  const index = node.keys.indexOf(key);
  const value = index === -1 ? undefined : node.values[index];
  return value?.kind === 'constant' && !(typeof value.value === 'string' && hasPlaceholderSyntax(value.value)) ? value.value : undefined;
}

/** Whether every value `checks` point to in `pass` is what it must be. */
export function passesSiteChecks(pass: Dict, checks: readonly SiteCheck[]): boolean {
  for (let index = 0; index < checks.length; index++) {
    const { path, accepts: tests } = checks[index] as SiteCheck;
    let value: unknown = pass;
    for (let step = 0; step < path.length; step++) value = (value as { readonly [key: Key]: unknown })[path[step] as Key];
    for (let test = 0; test < tests.length; test++) if (!accepts(value, tests[test] as Accept)) return false;
  }
  return true;
}

function accepts(value: unknown, accept: Accept): boolean {
  switch (accept) {
    case 'string':
      return typeof value === 'string';
    case 'text':
    case 'number':
      return hasKind(value, accept);
    case 'date':
      return typeof value === 'string' && w3cDateProblem(value) === undefined;
    case 'barcode-text':
      return isPlainBarcodeText(value);
    case 'color':
      return typeof value === 'string' && colorForm(value) !== undefined;
    default:
      return accept === 'any';
  }
}

/**
 * The body the template checks saw, rebuilt from what is rendered: constants
 * as they are, every placeholder-bearing string as `${}` (dynamic). Checking
 * it, rather than trusting that the template was, keeps buildPass exact even
 * for a template object changed after it was compiled.
 */
export function skeletonOf(node: PlanNode): unknown {
  switch (node.kind) {
    case 'constant':
      return node.value;
    case 'text':
    case 'value':
      return '${}';
    case 'array':
      return node.items.map(skeletonOf);
    case 'object': {
      const out: Record<string, unknown> = {};
      node.keys.forEach((key, index) => {
        Object.defineProperty(out, key, { value: skeletonOf(node.values[index] as PlanNode), enumerable: true, writable: true, configurable: true });
      });
      return out;
    }
  }
}
