// passmint/apns (Node): pass-update pushes over HTTP/2. Named re-exports only.
export { createApnsClient, type ApnsCertificate, type ApnsClient, type ApnsClientOptions, type PushOptions } from './client.js';
export { classifyPush, type PushOutcome, type PushResult } from './classify.js';
export { notifyPassUpdated, type NotifyOptions, type NotifyResult } from './notify.js';
export { createProviderTokens, PROVIDER_TOKEN_LIFETIME_MS, type ProviderTokenOptions, type ProviderTokens } from './provider-token.js';
export { APNS_ORIGINS } from './hosts.js';
export { ApnsError, type ApnsErrorCode } from './apns-error.js';
