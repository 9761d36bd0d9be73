// The service's rows: templates and their files, passes, webhook
// registrations, events with their deliveries and attempts. Plain functions
// over a SqlQueryable, so each can run alone or inside a caller's transaction.
export {
  changedBy,
  deleteTemplate,
  deleteTemplateFile,
  findTemplate,
  insertTemplate,
  listTemplates,
  nextTemplateId,
  putTemplateFile,
  templateFileSizes,
  templateFiles,
  updateTemplate,
  type TemplateRecord,
} from './templates.js';
export { deletePass, findPass, insertPass, listPasses, updatePass, type PassRecord } from './passes.js';
export { queuePushes } from './pushes.js';
export { findWebhook, insertWebhook, listWebhooks, setWebhookEvents, setWebhookSecret, setWebhookState, type WebhookRecord } from './webhooks.js';
export { findEvent, listEvents, type EventRecord } from './events.js';
export { listDeliveries, replayEvent, type DeliveryRecord } from './deliveries.js';
