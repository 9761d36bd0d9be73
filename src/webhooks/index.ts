export { createEvent, isEventType } from './event.js';
export type { CreateEventOptions } from './event.js';
export type {
  CertificateExpiringEventData,
  CustomEventData,
  JobCompletedEventData,
  KnownEventType,
  KnownWebhookEvent,
  PassEventData,
  PersonalizedEventData,
  RegistrationEventData,
  UnknownWebhookEvent,
  VerifyEventData,
  WebhookEvent,
  WebhookEventDataMap,
  WebhookEventOf,
} from './event-types.js';
export { checkEvent } from './event-check.js';
export type { EventProblem } from './event-check.js';
export { formatEventTime, parseEventTime } from './timestamp.js';
export { generateWebhookSecret } from './secret.js';
export { signPayload, verifySignature } from './signature.js';
export type { WebhookBody } from './signature.js';
export { SERVICE_HEADER, SIGNATURE_HEADER } from './header-names.js';
export { receiveWebhook } from './receive.js';
export type { HeadersLike, ReceiveWebhookOptions, WebhookRequestLike } from './receive.js';
export { respondToVerification, verifyEndpoint } from './handshake.js';
export type { EndpointVerification, VerificationFailure, VerifyEndpointOptions } from './handshake.js';
export { transitionRegistration } from './registration.js';
export type { RegistrationAction, RegistrationState } from './registration.js';
export { createDelivery } from './delivery.js';
export type { Delivery, DeliveryHeaders } from './delivery.js';
export { deliver } from './deliver.js';
export type { DeliverOptions, DeliveryOutcome, DeliveryResult } from './deliver.js';
export { DEFAULT_TIMEOUT_MS } from './post.js';
export type { AttemptOptions, FetchLike, NoResponseReason } from './post.js';
export { checkWebhookUrl } from './check-webhook-url.js';
export { MAX_RETRY_AFTER_MS, RETRY_SCHEDULE_MS, nextRetryDelay } from './retry.js';
export type { RetryDelayOptions } from './retry.js';
export { parseRetryAfter } from './retry-after.js';
export { dispatchEvent } from './dispatch.js';
export type { DispatchOptions, DispatchResult, DispatchTarget } from './dispatch.js';
export { WebhookError } from './webhook-error.js';
export type { WebhookErrorCode } from './webhook-error.js';
