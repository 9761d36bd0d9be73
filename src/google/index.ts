// passmint/google: Google Wallet — mapping with a loss report, credentials, save links, REST client, callbacks. Named re-exports only.
export { toGoogleWallet } from './map.js';
export { readGoogleCredentials } from './credentials.js';
export { createSaveUrl } from './save-url.js';
export { createGoogleWalletClient } from './client.js';
export { verifyGoogleCallback } from './callback.js';
export { fetchGoogleRootKeys, parseRootKeys } from './root-keys.js';
export { GoogleWalletError } from './error.js';
export type { GoogleWalletErrorCode } from './error.js';
export type {
  GoogleCallbackMessage,
  GoogleCallbackReason,
  GoogleCallbackResult,
  GoogleCredentials,
  GoogleLoss,
  GoogleLossCode,
  GoogleMapOptions,
  GoogleRootKey,
  GoogleSavePayload,
  GoogleWalletClient,
  GoogleWalletClientOptions,
  GoogleWalletMessage,
  GoogleWalletPass,
  GoogleWalletResource,
  GoogleWalletResourceBody,
  GoogleWalletType,
  SaveUrlOptions,
  VerifyGoogleCallbackOptions,
} from './types.js';
