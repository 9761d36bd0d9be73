// Apple's web service under /wallet/, served by the library's wallet handler
// (its paths and methods are that handler's own table), documented here.
import { WALLET_PATHS } from '../../wallet/route.js';
import { documentRoute, type RouteDocs } from './define.js';
import { bytesAnswer, emptyAnswer, jsonAnswer, jsonBody, problemAnswer, queryParameter, rateLimited } from './docs.js';
import { object, string } from './schemas.js';

/** Where the service mounts the wallet handler. */
export const WALLET_BASE_PATH = '/wallet';

const walletPath = (kind: keyof typeof WALLET_PATHS): string => `${WALLET_BASE_PATH}${WALLET_PATHS[kind].path}`;

/** The documentation of Apple's calls, as the service serves them under `/wallet/`. */
export const walletRouteDocs: readonly RouteDocs[] = [
  documentRoute({
    method: 'POST',
    path: walletPath('registration'),
    auth: 'apple-pass',
    summary: "Apple: register a device for a pass's updates",
    body: jsonBody(object({ pushToken: string() })),
    responses: {
      200: emptyAnswer(
        'Already registered; or the pass or the device is at its registration cap (`maxRegistrationsPerPass`, `maxRegistrationsPerDevice`): nothing stored, no event.',
      ),
      201: emptyAnswer('Registered.'),
      400: problemAnswer('A bad body.'),
      429: rateLimited,
    },
  }),
  documentRoute({
    method: 'DELETE',
    path: walletPath('registration'),
    auth: 'apple-pass',
    summary: 'Apple: unregister a device',
    responses: { 200: emptyAnswer('Unregistered.'), 429: rateLimited },
  }),
  documentRoute({
    method: 'GET',
    path: walletPath('serials'),
    auth: 'public',
    summary: 'Apple: the serial numbers changed since a tag',
    query: [queryParameter('passesUpdatedSince', 'The `lastUpdated` tag of the previous answer.')],
    responses: {
      200: jsonAnswer(object({ lastUpdated: string(), serialNumbers: { type: 'array', items: string() } }), 'The serial numbers and the new tag.'),
      204: emptyAnswer('Nothing changed.'),
      429: rateLimited,
    },
  }),
  documentRoute({
    method: 'GET',
    path: walletPath('pass'),
    auth: 'apple-pass',
    summary: 'Apple: the latest version of a pass',
    responses: {
      200: bytesAnswer('application/vnd.apple.pkpass', 'The signed pass.'),
      304: emptyAnswer('Not modified since `If-Modified-Since`.'),
      429: rateLimited,
    },
  }),
  documentRoute({
    method: 'POST',
    path: walletPath('personalize'),
    auth: 'apple-pass',
    summary: 'Apple: personalize a rewards-enrollment pass',
    body: jsonBody(object({ personalizationToken: string(), requiredPersonalizationInfo: { type: 'object' } })),
    responses: { 200: bytesAnswer('application/octet-stream', 'The signed personalization token.'), 400: problemAnswer('A bad body.'), 429: rateLimited },
  }),
  documentRoute({
    method: 'POST',
    path: walletPath('log'),
    auth: 'public',
    summary: 'Apple: log messages from devices',
    body: jsonBody(object({ logs: { type: 'array', items: string() } })),
    responses: { 200: emptyAnswer('Received.'), 400: problemAnswer('Not `{"logs": [...]}`.'), 429: rateLimited },
  }),
];
