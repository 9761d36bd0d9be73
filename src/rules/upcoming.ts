import { describe, expectKind, isDict, isDynamic, type Key, type Kind, mayInherit, nameOf, quote, report } from './context.js';
import { checkUpcomingSemantics } from './semantics.js';
import { OPAQUE_OBJECT, type Sites } from './sites.js';
import { reportUnknownKey } from './unknown-key.js';
import type { Check } from './values.js';

// An UpcomingPassInformationEntry (iOS 26): one more event on a multi-event
// ticket. developer.apple.com/documentation/walletpasses/upcomingpassinformationentry
const MEMBERS: ReadonlyMap<string, Kind | 'semantics'> = new Map<string, Kind | 'semantics'>([
  ['identifier', 'string'],
  ['name', 'string'],
  ['type', 'string'],
  ['isActive', 'boolean'],
  ['dateInformation', 'object'],
  ['URLs', 'object'],
  ['images', 'object'],
  ['semantics', 'semantics'],
  ['additionalInfoFields', 'array'],
  ['backFields', 'array'],
  ['auxiliaryStoreIdentifiers', 'array'],
]);
const NAMES: readonly string[] = [...MEMBERS.keys()];
const REQUIRED: readonly string[] = ['identifier', 'name', 'type'];

/** What a placeholder may render to in an entry for checkUpcomingEntry to find no error (see sites.ts). */
export const UPCOMING_SITES: Sites = {
  each: () => (key) => {
    const kind = MEMBERS.get(key);
    return kind === undefined ? 'any' : kind === 'semantics' ? OPAQUE_OBJECT : kind === 'string' ? 'string' : 'none';
  },
};

/**
 * An element of `upcomingPassInformation`. A member of the wrong type is an
 * error; a missing `identifier`, `name` or `type` a warning (Wallet leaves
 * such an entry out, the pass itself still opens).
 */
export const checkUpcomingEntry: Check = (context, value, key) => {
  if (isDynamic(context, value)) return;
  if (!isDict(value)) {
    report(context, 'error', 'invalid-type', key, `${nameOf(context, key)} must be an upcoming event object, not ${describe(value)}`);
    return;
  }
  context.stack.push(key as Key);
  const inherited = mayInherit(context, value);
  for (const name in value) {
    if (inherited && !Object.hasOwn(value, name)) continue;
    const child = value[name];
    if (child === undefined) continue;
    const kind = MEMBERS.get(name);
    if (kind === undefined) reportUnknownKey(context, name, NAMES, 'an upcoming pass information entry');
    else if (kind === 'semantics') checkUpcomingSemantics(context, child, name);
    else expectKind(context, child, kind, name);
  }
  for (const name of REQUIRED) {
    if (!Object.hasOwn(value, name) || value[name] === undefined) {
      report(context, 'warning', 'missing-key', name, `An upcoming pass information entry needs ${quote(name)}; Wallet leaves it out without one`);
    }
  }
  context.stack.pop();
};
