// What bench/scale.js runs of the service's own statements, from the sources
// (bundled by bench/lib/bundle.js): the repositories' functions the routes, the
// workers, a /metrics scrape and a start call, each timed and explained on the
// database as the scale test built it.
export { deleteFinishedAttempts, deleteFinishedDeliveries, listDeliveries } from '../../src/server/db/deliveries.js';
export { deleteOldEvents, listEvents } from '../../src/server/db/events.js';
export { readQueueFigures } from '../../src/server/db/figures.js';
export { deleteOldGoogleMessages } from '../../src/server/db/google-messages.js';
export { findPass, listPasses } from '../../src/server/db/passes.js';
export { deleteEndedPushes } from '../../src/server/db/pushes.js';
export { claim, releaseOrphans } from '../../src/server/db/queue.js';
export { deleteTemplate } from '../../src/server/db/templates.js';
export { QUEUE_KINDS } from '../../src/server/queue/queue.js';
