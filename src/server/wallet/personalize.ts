// Rewards enrollment in the service: a signup Wallet posts to the personalize
// endpoint becomes part of the pass's values, the pass is rendered again as a
// new version, and Wallet's next fetch gets it — without the signup files.

import { PreparedFiles } from '../../pkpass/prepare.js';
import type { JsonObject } from '../../types.js';
import type { PersonalizationInfo, WalletPersonalization } from '../../wallet/personalization.js';
import { createEvent } from '../../webhooks/event.js';
import type { PassBuilder } from '../build/pass-builder.js';
import type { SqlQueryable } from '../db/sql.js';
import { addEvents } from '../db/outbox.js';
import * as store from '../db/store.js';
import { markPassUpdated } from '../db/devices.js';

/** The values member that holds a pass's signup; its presence marks the pass personalized. */
export const PERSONALIZATION_VALUE = 'personalization';

/** Whether a pass's values record a signup. */
export function isPersonalized(values: JsonObject): boolean {
  const recorded = Object.hasOwn(values, PERSONALIZATION_VALUE) ? values[PERSONALIZATION_VALUE] : undefined;
  return typeof recorded === 'object' && recorded !== null && !Array.isArray(recorded);
}

/** Whether a recorded signup holds exactly these fields (stored objects may come back in another key order). */
function sameSignup(recorded: JsonObject, info: PersonalizationInfo): boolean {
  const given = Object.entries(info);
  return given.length === Object.keys(recorded).length && given.every(([key, value]) => Object.hasOwn(recorded, key) && recorded[key] === value);
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
 * const options: PersonalizeOptions = { builder, pushes: true, commitEvents: async (work) => { await db.transaction(work); notify(); } };
 * ```
 */
export interface PersonalizeOptions {
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
 * `false` (nothing changed) for a pass whose template has no
 * `personalization.json`, or that is personalized already with other
 * fields; `true` without a change for the same signup again.
 */
export function personalizePass(options: PersonalizeOptions): (signup: WalletPersonalization, request: Request) => Promise<boolean> {
  const { builder, pushes, commitEvents } = options;
  return async (signup, request) => {
    const { passTypeIdentifier, serialNumber, requiredPersonalizationInfo: info } = signup;
    let personalized = true;
    await commitEvents(async (tx) => {
      const current = await store.findPass(tx, passTypeIdentifier, serialNumber, true);
      if (current === undefined) throw new Error(`the pass ${passTypeIdentifier}/${serialNumber} is gone`);
      // Anyone who knows the serial number can call: only a pass that asks for a signup and has none yet takes one.
      // The same signup again (Wallet never got the answer) is signed again, and changes and tells nothing.
      if (isPersonalized(current.values)) {
        personalized = sameSignup(current.values[PERSONALIZATION_VALUE] as JsonObject, info);
        return;
      }
      const files = await store.templateFileSizes(tx, current.templateId);
      if (!files.some((file) => file.path === 'personalization.json')) {
        personalized = false;
        return;
      }
      const template = await store.findTemplate(tx, current.templateId);
      if (template === undefined) throw new Error(`the template of ${passTypeIdentifier}/${serialNumber} is gone`);
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
