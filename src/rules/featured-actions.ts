import type { FeaturedActionType } from '../types.js';
import { type Context, describe, expectKind, isDict, isDynamic, type Key, mayInherit, nameOf, quote, report } from './context.js';
import type { Sites } from './sites.js';
import { reportUnknownKey } from './unknown-key.js';
import type { Check } from './values.js';

// iOS 27's Featured Actions: cards below the pass, each an identifier, a type
// and a URL ("What's new in Wallet", WWDC26; Apple, "Defining the metadata of
// your Wallet Pass" → Add Featured Actions, for the types). Wallet shows up to
// two. Nothing here is known to make Wallet refuse a pass: an action it cannot
// use is left out, so everything but a wrong JSON type is a warning.

/** The action types Apple lists, in its order. */
export const FEATURED_ACTION_TYPES: readonly FeaturedActionType[] = [
  'viewSchedule',
  'watchTrailer',
  'listenToMusic',
  'call',
  'place',
  'addToBalance',
  'order',
  'shop',
  'membershipBenefits',
  'bookAppointment',
  'bookCar',
  'bookFlight',
  'bookStay',
  'viewOffersRewards',
];
const TYPES: ReadonlySet<string> = new Set(FEATURED_ACTION_TYPES);
const MEMBERS = ['identifier', 'type', 'url'] as const;
/** How many actions Wallet shows. */
export const MAX_FEATURED_ACTIONS = 2;

/** What a placeholder may render to in `featuredActions` for no rule to find an error (see sites.ts): any string (the rest are warnings). */
export const FEATURED_ACTIONS_SITES: Sites = { each: () => (key) => ((MEMBERS as readonly string[]).includes(key) ? 'string' : 'any') };

/**
 * `featuredActions`: an array of `{ identifier, type, url }`. A member of the
 * wrong JSON type is an error; a third action, a type Apple does not list, a
 * missing member or an identifier used twice are warnings (Wallet shows two
 * actions and leaves out one it cannot use).
 */
export const checkFeaturedActions: Check = (context, value, key) => {
  if (!expectKind(context, value, 'array', key)) return;
  const actions = value as readonly unknown[];
  context.stack.push(key);
  const identifiers = new Map<string, number>();
  for (let index = 0; index < actions.length; index++) checkAction(context, actions[index], index, identifiers);
  if (actions.length > MAX_FEATURED_ACTIONS) {
    report(
      context,
      'warning',
      'too-many-featured-actions',
      MAX_FEATURED_ACTIONS,
      `Wallet shows at most ${MAX_FEATURED_ACTIONS} featured actions, the first ones: this one and the rest of the ${actions.length} are not shown`,
    );
  }
  context.stack.pop();
};

function checkAction(context: Context, action: unknown, index: number, identifiers: Map<string, number>): void {
  if (isDynamic(context, action)) return;
  if (!isDict(action)) {
    report(
      context,
      'error',
      'invalid-type',
      index,
      `${nameOf(context, index)} must be a featured action object ({ identifier, type, url }), not ${describe(action)}`,
    );
    return;
  }
  context.stack.push(index as Key);
  const inherited = mayInherit(context, action);
  for (const member in action) {
    if (inherited && !Object.hasOwn(action, member)) continue;
    const child = action[member];
    if (child === undefined) continue;
    if (!(MEMBERS as readonly string[]).includes(member)) {
      reportUnknownKey(context, member, MEMBERS, 'a featured action');
      continue;
    }
    if (!expectKind(context, child, 'string', member)) continue;
    const text = child as string;
    if (member === 'type' && !TYPES.has(text)) {
      report(
        context,
        'warning',
        'unknown-featured-action-type',
        'type',
        `${describe(text)} is not a featured action type Apple lists (${FEATURED_ACTION_TYPES.join(', ')}); Wallet leaves the action out`,
      );
    } else if (member === 'identifier') {
      const first = identifiers.get(text);
      if (first === undefined) identifiers.set(text, index);
      else
        report(
          context,
          'warning',
          'duplicate-featured-action',
          'identifier',
          `The identifier ${describe(text)} is already used by featured action ${first}; each action needs its own`,
        );
    }
  }
  for (const member of MEMBERS) {
    if (!Object.hasOwn(action, member) || action[member] === undefined) {
      report(context, 'warning', 'missing-key', member, `A featured action needs ${quote(member)}; Wallet leaves it out without one`);
    }
  }
  context.stack.pop();
}
