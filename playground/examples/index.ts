import { boardingPass } from './boarding-pass.js';
import { coupon } from './coupon.js';
import { eventTicket } from './event-ticket.js';
import { membershipCard } from './membership-card.js';
import { posterEvent } from './poster-event.js';
import { posterGeneric } from './poster-generic.js';
import { reference } from './reference.js';
import { storeCard } from './store-card.js';
import type { Example } from './types.js';

export type { Example, FormValue } from './types.js';

/** The templates the picker offers, in the order shown; the first is loaded on a first visit. */
export const examples: readonly Example[] = [membershipCard, reference, eventTicket, coupon, boardingPass, storeCard, posterEvent, posterGeneric];
