import { createHash } from 'node:crypto';
import { verifyGoogleCallback } from '../../google/callback.js';
import { GoogleWalletError } from '../../google/error.js';
import { createSaveUrl } from '../../google/save-url.js';
import type { GoogleCallbackReason } from '../../google/types.js';
import { imageTooLarge } from '../../pkpass/image-limits.js';
import { pngHeader } from '../../pkpass/png.js';
import { sameToken } from '../../wallet/apple-pass-auth.js';
import { createEvent } from '../../webhooks/event.js';
import { firstNonce, MAX_NONCE_LENGTH } from '../db/google-nonces.js';
import { googleImageBytes, isGoogleObjectSynced, passOfGoogleObject, recordGoogleObject } from '../db/google-objects.js';
import { queueGoogleObject } from '../db/google-sync.js';
import { addEvents } from '../db/outbox.js';
import type { SqlQueryable } from '../db/sql.js';
import * as store from '../db/store.js';
import { GOOGLE_CALLBACK_PATH, mapStoredPass, type ServiceGoogleMapping } from '../google/mapping.js';
import type { GoogleService } from '../google/service.js';
import { readBody } from '../http/body.js';
import { ServiceProblem } from '../../http/problem.js';
import { defineRoute, type Route } from './define.js';
import { bytesAnswer, emptyAnswer, jsonAnswer, jsonBody, passToken, problemAnswer } from './docs.js';
import { found, noPass } from './lookups.js';
import { json } from './responses.js';
import { ref } from './schemas.js';

/** A callback is a few hundred bytes; anything much larger is not Google's. */
const MAX_CALLBACK_BYTES = 64 * 1024;

/** Reasons that say the callback is not Google's (401), rather than not even shaped like one (400). */
const NOT_AUTHENTIC: ReadonlySet<GoogleCallbackReason> = new Set([
  'no-root-key',
  'intermediate-signature-invalid',
  'intermediate-expired',
  'signature-invalid',
  'message-expired',
]);

/** Without Google configured the save link answers 409. */
function configured(google: GoogleService | undefined): GoogleService {
  if (google === undefined) {
    throw new ServiceProblem(
      409,
      'google-not-configured',
      'The service has no Google Wallet issuer (start it with --google-credentials and --google-issuer-id).',
    );
  }
  return google;
}

/**
 * Google Wallet: the save link of a pass, Google's save/delete callbacks,
 * and the template images Google fetches. Without Google configured the
 * link answers 409 `google-not-configured` and the callback 404.
 */
export const googleRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/v1/passes/{type}/{serial}/google',
    auth: { scope: 'read', checkedBy: 'handler', or: 'pass-token' },
    summary: "The pass's Google Wallet save link",
    description: 'With an API key: the link as JSON. With `?token=`: a 303 redirect to it (a link for the holder).',
    query: [passToken],
    responses: {
      200: jsonAnswer(ref('GoogleSaveLink'), 'The save link, and what Google Wallet cannot show of the pass.'),
      303: emptyAnswer('Redirect to the save link (opened with `?token=`).'),
      401: problemAnswer("Neither an API key nor the pass's own token (`missing-credentials`, `invalid-credentials`)."),
      404: problemAnswer('No such pass.'),
      409: problemAnswer('Google Wallet is not configured (`google-not-configured`).'),
      429: problemAnswer('Opened with `?token=`: too many requests from this address or for this pass (`rate-limited`); `Retry-After` says when to try again.'),
      503: problemAnswer(
        'The pass is too large for a link that carries it and is not at Google yet (`google-not-ready`); `Retry-After` says when to ask again.',
      ),
    },
    handler: async ({ request, params, url }, { context, db, guard }) => {
      const token = url.searchParams.get('token');
      // A link opened by anyone: the same rates per address and per token as the .pkpass link.
      if (token !== null) guard.admit(request, token);
      const record = await store.findPass(db, params.type, params.serial);
      // As for the .pkpass link: the pass's own token opens it (a link for the holder), or the API key.
      const byToken = token !== null && record?.pass.authenticationToken !== undefined && (await sameToken(token, record.pass.authenticationToken));
      if (!byToken && !(await context.authenticate(request))) {
        throw new ServiceProblem(401, token === null ? 'missing-credentials' : 'invalid-credentials', "Send an API key, or open the pass's own link.", {
          headers: { 'www-authenticate': 'Bearer' },
        });
      }
      const service = configured(context.google);
      const pass = await found(record, 'pass-not-found', noPass(params.type, params.serial));
      const assets = await service.assets(db, pass.templateId);
      if (assets === undefined) throw new ServiceProblem(404, 'template-not-found', "The pass's template is gone.");
      const mapped = mapStoredPass({ issuerId: service.issuerId, publicUrl: context.publicUrl }, pass.templateId, pass.pass, assets);
      // The object id is known from now on: a save callback about it names this pass.
      await recordGoogleObject(db, {
        passTypeIdentifier: pass.passTypeIdentifier,
        serialNumber: pass.serialNumber,
        objectId: mapped.objectId,
        classId: mapped.classId,
        resource: mapped.objectResource,
      });
      const saveUrl = await saveLink(service, db, pass, mapped, context.notify);
      if (byToken) return new Response(null, { status: 303, headers: { location: saveUrl, 'cache-control': 'no-store' } });
      return json({ url: saveUrl, type: mapped.type, classId: mapped.classId, objectId: mapped.objectId, losses: mapped.losses }, 200, {
        'cache-control': 'no-store',
      });
    },
  }),
  defineRoute({
    method: 'POST',
    path: GOOGLE_CALLBACK_PATH,
    auth: 'public',
    summary: "Google Wallet's save and delete callbacks",
    description: 'Signed by Google (ECv2SigningOnly); checked, then reported as `registration.created` / `registration.deleted` events.',
    body: jsonBody({ type: 'object' }),
    responses: {
      200: emptyAnswer('Accepted (a repeat is accepted and dropped).'),
      400: problemAnswer(
        "Not a callback, a nonce over 256 characters, ids not under this issuer, or a class that is not the object's (`invalid-callback`); nothing stored.",
      ),
      401: problemAnswer('Not signed by Google for this issuer, or expired (`invalid-callback`; the detail names the reason).'),
      404: problemAnswer('Google Wallet is not configured.'),
      413: problemAnswer('Over 64 KiB.'),
      503: problemAnswer("Google's keys could not be fetched (`google-keys-unavailable`)."),
    },
    handler: async ({ request }, { context, db }) => {
      const google = context.google;
      if (google === undefined) throw new ServiceProblem(404, 'not-found', 'No such route; the API lives under /v1/.');
      const text = new TextDecoder().decode(await readBody(request, MAX_CALLBACK_BYTES));
      const rootKeys = await google.rootKeys();
      if (rootKeys === undefined) {
        throw new ServiceProblem(503, 'google-keys-unavailable', "Google's callback signing keys could not be fetched; Google will try again.", {
          headers: { 'retry-after': '60' },
        });
      }
      const result = await verifyGoogleCallback(text, { issuerId: google.issuerId, rootKeys });
      if (!result.ok) {
        const status = NOT_AUTHENTIC.has(result.reason) ? 401 : 400;
        throw new ServiceProblem(status, 'invalid-callback', `The callback was refused: ${result.reason}.`);
      }
      const { message } = result;
      // Checked before anything is stored: a nonce is kept for days, so its length is bounded (Google's are a few dozen characters)…
      if (message.nonce.length > MAX_NONCE_LENGTH) {
        throw new ServiceProblem(400, 'invalid-callback', `The callback was refused: its nonce is longer than ${MAX_NONCE_LENGTH} characters.`);
      }
      // …and the object and its class are this issuer's (ids are <issuerId>.<…>).
      const prefix = `${google.issuerId}.`;
      if (!message.objectId.startsWith(prefix) || !message.classId.startsWith(prefix)) {
        throw new ServiceProblem(400, 'invalid-callback', `The callback was refused: its object and class ids are not under this issuer (${google.issuerId}).`);
      }
      let added = false;
      await db.transaction(async (tx) => {
        const pass = await passOfGoogleObject(tx, message.objectId);
        // The class must be the one the object was issued in (its template's): refused, nothing stored, not even the nonce.
        if (pass !== undefined && pass.classId !== message.classId) {
          throw new ServiceProblem(
            400,
            'invalid-callback',
            `The callback was refused: class ${JSON.stringify(message.classId.slice(0, 300))} is not the object's class.`,
          );
        }
        // A repeat (Google delivers at least once) is acknowledged and dropped.
        if (!(await firstNonce(tx, message.nonce, message.expTimeMillis))) return;
        // An object this service never issued: nothing to tell.
        if (pass === undefined) return;
        const type = message.eventType === 'save' ? 'registration.created' : 'registration.deleted';
        const data = { serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier, wallet: 'google', objectId: message.objectId };
        await addEvents(tx, [createEvent(type, data)]);
        added = true;
      });
      if (added) context.notify();
      return new Response(null, { status: 200 });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/google/images/{template}/{hash}/{path+}',
    auth: 'public',
    summary: 'A template image, for Google Wallet to fetch',
    responses: {
      200: bytesAnswer('image/png', 'The image; its address names its content.'),
      404: problemAnswer('No such image.'),
      422: problemAnswer('An image stored before passmint refused PNG dimension bombs, declaring more pixels than it signs (`image-too-large`).'),
    },
    handler: async ({ request, params }, { context, db, guard }) => {
      // Anyone may fetch (each hit reads up to 4 MiB from the database): the address's rate, as on the other public routes.
      guard.admit(request);
      const google = context.google;
      const templateId = /^[1-9]\d{0,9}$/.test(params.template) ? Number(params.template) : undefined;
      const { hash, path } = params;
      // Known hashes first (cached per template version): a wrong address costs no file read.
      // Images only (what Google fetches), not the template's other files.
      const image = path.toLowerCase().endsWith('.png');
      const assets = google === undefined || !image || templateId === undefined || templateId > 2_147_483_647 ? undefined : await google.assets(db, templateId);
      const bytes = templateId === undefined || assets?.hashes.get(path) !== hash ? undefined : await googleImageBytes(db, templateId, path);
      // The file may have changed since its hash was read: serve only what the address names.
      if (bytes === undefined || createHash('sha256').update(bytes).digest('hex') !== hash) {
        throw new ServiceProblem(404, 'file-not-found', 'No such image (a changed image has a new address).');
      }
      // An image stored before passmint refused dimension bombs is not handed to Google's image fetcher either.
      const header = pngHeader(bytes);
      const tooLarge = header === undefined ? undefined : imageTooLarge(path, header);
      if (tooLarge !== undefined) throw new ServiceProblem(422, 'image-too-large', tooLarge.message, { issues: [tooLarge] });
      // The address names the content: it never changes meaning, so it may be cached for good.
      return new Response(bytes as Uint8Array<ArrayBuffer>, {
        status: 200,
        headers: {
          'content-type': 'image/png',
          'cache-control': 'public, max-age=31536000, immutable',
          etag: `"${hash}"`,
        },
      });
    },
  }),
];

/**
 * The "Add to Google Wallet" link: the class and object in full when the
 * JWT fits Google's 1,800 characters; otherwise the object by id alone,
 * once the queue has inserted it (503 until then).
 */
async function saveLink(google: GoogleService, db: SqlQueryable, pass: store.PassRecord, mapped: ServiceGoogleMapping, notify: () => void): Promise<string> {
  try {
    return await createSaveUrl(google.credentials, {
      objects: [{ type: mapped.type, object: mapped.object }],
      classes: [{ type: mapped.type, class: mapped.class }],
    });
  } catch (error) {
    if (!(error instanceof GoogleWalletError) || error.code !== 'save-link-too-long') throw error;
  }
  if (!(await isGoogleObjectSynced(db, pass.passTypeIdentifier, pass.serialNumber))) {
    // Owed already when the pass was made or changed; queued again for a pass made before Google was set up.
    await queueGoogleObject(db, pass.passTypeIdentifier, pass.serialNumber);
    notify();
    throw new ServiceProblem(
      503,
      'google-not-ready',
      'The pass is too large for a link that carries it; it is being sent to Google first. Try again in a few seconds.',
      {
        headers: { 'retry-after': '5' },
      },
    );
  }
  return createSaveUrl(google.credentials, { objects: [{ type: mapped.type, object: { id: mapped.objectId, classId: mapped.classId } }] });
}
