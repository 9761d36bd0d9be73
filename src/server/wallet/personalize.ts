// Rewards enrollment in the service: a signup Wallet posts to the personalize
// endpoint becomes part of the pass's values, the pass is rendered again as a
// new version, and Wallet's next fetch gets it — without the signup files.

import { PackError } from '../../pkpass/pack-error.js';
import { PreparedFiles } from '../../pkpass/prepare.js';
import type { JsonObject } from '../../types.js';
import type { PersonalizationInfo, WalletPersonalization } from '../../wallet/personalization.js';
import { createEvent } from '../../webhooks/event.js';
import type { PassBuilder } from '../build/pass-builder.js';
import type { SqlQueryable } from '../db/sql.js';
import { addEvents } from '../db/outbox.js';
import * as store from '../db/store.js';
import { markPassUpdated } from '../db/devices.js';
import { ServiceProblem } from '../../http/problem.js';

/** The values member that holds a pass's signup; its presence marks the pass personalized. */
export const PERSONALIZATION_VALUE = 'personalization';

/** Whether a pass's values record a signup. */
export function isPersonalized(values: JsonObject): boolean {
  const recorded = Object.hasOwn(values, PERSONALIZATION_VALUE) ? values[PERSONALIZATION_VALUE] : undefined;
  return typeof recorded === 'object' && recorded !== null && !Array.isArray(recorded);
}

/**
 * What each field a form asks for (`requiredPersonalizationFields`) needs in
 * the signup: a name is `fullName`, or `givenName` or `familyName`; the others
 * their one member. A member counts when it holds more than spaces.
 */
const REQUIRED_MEMBERS: Readonly<Record<string, readonly (keyof PersonalizationInfo)[]>> = {
  PKPassPersonalizationFieldName: ['fullName', 'givenName', 'familyName'],
  PKPassPersonalizationFieldPostalCode: ['postalCode'],
  PKPassPersonalizationFieldEmailAddress: ['emailAddress'],
  PKPassPersonalizationFieldPhoneNumber: ['phoneNumber'],
};

/** The fields the form asks for that the signup does not carry (Apple's names); every field when it carries none. */
export function missingFields(required: readonly string[], info: PersonalizationInfo): string[] {
  const given = (key: keyof PersonalizationInfo): boolean => Object.hasOwn(info, key) && typeof info[key] === 'string' && info[key].trim() !== '';
  const missing = required.filter((field) => !(REQUIRED_MEMBERS[field] ?? []).some(given));
  // A signup with no member at all (`{}`, or only keys such as __proto__ that are left out) is never one.
  if (missing.length === 0 && !Object.keys(REQUIRED_MEMBERS).some((field) => REQUIRED_MEMBERS[field]!.some(given)))
    return ['a name, postal code, email address or phone number'];
  return missing;
}

/** `requiredPersonalizationFields` of a template's `personalization.json` (checked at upload); none when unreadable. */
function requiredFields(files: PreparedFiles): string[] {
  const file = files.files.find((candidate) => candidate.personalization === true);
  if (file === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(file.bytes));
    const fields =
      typeof parsed === 'object' && parsed !== null ? (parsed as { requiredPersonalizationFields?: unknown }).requiredPersonalizationFields : undefined;
    return Array.isArray(fields) ? fields.filter((field): field is string => typeof field === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The files of a personalized pass: the template's without `personalization.json`
 * and `personalizationLogo*.png` (a pass that still had them would ask the user
 * to sign up again).
 */
export function filesFor(values: JsonObject, files: PreparedFiles): PreparedFiles {
  if (!isPersonalized(values)) return files;
  const kept = files.files.filter((file) => file.personalization !== true && file.image?.name !== 'personalizationLogo');
  return kept.length === files.files.length ? files : new PreparedFiles(kept, files.issues);
}

/**
 * What {@link personalizePass} needs of the service.
 *
 * @example
 * ```ts
 * const options: PersonalizeOptions = { db, builder, pushes: true, commitEvents: async (work) => { await db.transaction(work); notify(); } };
 * ```
 */
export interface PersonalizeOptions {
  /** Where the pass and its template are read before the signup's transaction. */
  readonly db: SqlQueryable;
  /** Renders the personalized pass from its template. */
  readonly builder: PassBuilder;
  /** Whether APNs pushes are queued when a pass changes. */
  readonly pushes: boolean;
  /** Runs a transaction that queues events or pushes, then wakes the workers. */
  readonly commitEvents: (work: (tx: SqlQueryable) => Promise<void>) => Promise<void>;
}

/**
 * The wallet handler's `onPersonalize` for the service: in one transaction,
 * the signup's fields join the pass's values (each at the top level under
 * Apple's name — `fullName`, `emailAddress` … — for templates that use them as
 * placeholders, and all of them under `personalization`), the pass is
 * rendered again from its template (serial number and token kept), its
 * version and update tag move forward, pushes are queued, and
 * `pass.personalized` (with the fields) and `pass.updated` join the outbox.
 * `false` (nothing changed, nothing signed: 404) for a pass whose template
 * has no `personalization.json`, or that is personalized already — whoever
 * calls, with whatever token: a pass is enrolled once, and the pass
 * certificate signs one token for it, the first signup's. A signup that
 * lacks a field the form asks for (or carries none) is a 400
 * `invalid-personalization` problem, and nothing is stored.
 */
export function personalizePass(options: PersonalizeOptions): (signup: WalletPersonalization, request: Request) => Promise<boolean> {
  const { db, builder, pushes, commitEvents } = options;
  // Anyone who knows the serial number can call: only a pass that asks for a signup and has none yet takes one.
  // Once enrolled, no further signup is taken or signed — not even the same one again (each would be a
  // fresh signature from the pass certificate over a token of the caller's choosing).
  const takesSignup = async (sql: SqlQueryable, passTypeIdentifier: string, serialNumber: string, lock: boolean) => {
    const current = await store.findPass(sql, passTypeIdentifier, serialNumber, lock);
    if (current === undefined) throw new Error(`the pass ${passTypeIdentifier}/${serialNumber} is gone`);
    if (isPersonalized(current.values)) return undefined;
    const files = await store.templateFileSizes(sql, current.templateId);
    if (!files.some((file) => file.path === 'personalization.json')) return undefined;
    const template = await store.findTemplate(sql, current.templateId);
    if (template === undefined) throw new Error(`the template of ${passTypeIdentifier}/${serialNumber} is gone`);
    return { current, template };
  };
  return async (signup, request) => {
    const { passTypeIdentifier, serialNumber, requiredPersonalizationInfo: info } = signup;
    // Checked before the transaction (the template's files are read through their cache, outside it).
    const before = await takesSignup(db, passTypeIdentifier, serialNumber, false);
    if (before === undefined) return false;
    const missing = missingFields(requiredFields(await preparedFiles(builder, before.template)), info);
    if (missing.length > 0) {
      throw new ServiceProblem(400, 'invalid-personalization', `The signup lacks what the pass's form asks for: ${missing.join(', ')}. Nothing was stored.`);
    }
    let personalized = true;
    await commitEvents(async (tx) => {
      // Again under the pass's row lock: of two signups at once, the second finds the first's.
      const found = await takesSignup(tx, passTypeIdentifier, serialNumber, true);
      if (found === undefined) {
        personalized = false;
        return;
      }
      const { current, template } = found;
      const values: JsonObject = { ...current.values, ...info, [PERSONALIZATION_VALUE]: { ...info } };
      // Without a public URL, the pass's own web service address, not one from this request's Host (anyone may send this call).
      const pass = builder.build(request, template, values, {
        serialNumber,
        authenticationToken: current.pass.authenticationToken,
        webServiceURL: typeof current.pass.webServiceURL === 'string' ? current.pass.webServiceURL : undefined,
      });
      await store.updatePass(tx, values, pass);
      await markPassUpdated(tx, passTypeIdentifier, serialNumber);
      if (pushes) await store.queuePushes(tx, passTypeIdentifier, serialNumber);
      await addEvents(tx, [
        createEvent('pass.personalized', { serialNumber, passTypeIdentifier, personalization: info }),
        createEvent('pass.updated', { serialNumber, passTypeIdentifier }),
      ]);
    });
    return personalized;
  };
}

/** The template's prepared files; a template whose files cannot be packed is a 422, as its download. */
async function preparedFiles(builder: PassBuilder, template: Parameters<PassBuilder['files']>[0]): Promise<PreparedFiles> {
  try {
    return await builder.files(template);
  } catch (error) {
    if (error instanceof PackError) throw new ServiceProblem(422, 'cannot-pack', error.message, { issues: error.issues });
    throw error;
  }
}
