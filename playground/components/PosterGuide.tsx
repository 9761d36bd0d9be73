import type { JSX } from 'preact';
import type { Field, Pass, PassUpcomingEntry } from '../../src/index.js';
import { DetailsList } from './PassDetails.js';
import type { CardImages } from './PassCard.js';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const isField = (value: unknown): value is Field => typeof value === 'object' && value !== null && typeof (value as { key?: unknown }).key === 'string';

/**
 * When an upcoming event takes place, as its row says it: the date (and the time, unless
 * `isAllDay`) in the event's own `timeZone`; "TBD" without a date, as Wallet labels it.
 */
export function upcomingDate(info: PassUpcomingEntry['dateInformation']): string {
  const given = info === undefined || info['isUnannounced'] === true || info['isUndetermined'] === true ? undefined : text(info['date']);
  const date = given === undefined ? undefined : new Date(given);
  if (date === undefined || Number.isNaN(date.getTime())) return 'TBD';
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', ...(info?.['isAllDay'] === true ? {} : { timeStyle: 'short' }) };
  const zone = text(info?.['timeZone']);
  try {
    return new Intl.DateTimeFormat(undefined, zone === undefined ? options : { ...options, timeZone: zone }).format(date);
  } catch {
    // An unknown time zone name: the date as the phone's clock shows it.
    return new Intl.DateTimeFormat(undefined, options).format(date);
  }
}

/**
 * What Wallet draws below a poster event ticket (iOS 18; upcoming events since iOS 26),
 * in the system's colors: the Additional Info section (the event ticket's
 * `additionalInfoFields`, links live), the upcoming events of a multi-event ticket
 * (`upcomingPassInformation`, each with its name, date and venue; "TBD" without a
 * date), and the event guide's venue map (`venueMap.png`). Nothing when the pass has
 * none of them.
 */
export function PosterGuide({ pass, images }: { pass: Pass; images: CardImages }): JSX.Element | null {
  const info = (pass.eventTicket?.additionalInfoFields ?? []).filter(isField);
  const upcoming = (Array.isArray(pass.upcomingPassInformation) ? pass.upcomingPassInformation : []).filter(
    (entry): entry is PassUpcomingEntry => typeof entry === 'object' && entry !== null && entry.type === 'event' && text(entry.name) !== undefined,
  );
  const map = images.venueMap;
  if (info.length === 0 && upcoming.length === 0 && map === undefined) return null;
  return (
    <div class="poster-guide" data-testid="poster-guide">
      {info.length === 0 ? null : (
        <section class="guide-section" data-testid="additional-info">
          <h3 class="guide-title">Additional Info</h3>
          <DetailsList fields={info} />
        </section>
      )}
      {upcoming.length === 0 ? null : (
        <section class="guide-section" data-testid="upcoming-events">
          <h3 class="guide-title">Upcoming Events</h3>
          <ul class="details-group">
            {upcoming.map((entry, index) => {
              const venue = text(entry.semantics?.['venueName']);
              return (
                <li
                  key={`${entry.identifier}:${index}`}
                  class="details-row upcoming"
                  data-identifier={entry.identifier}
                  data-active={entry.isActive === true ? 'true' : undefined}
                >
                  <strong class="upcoming-name">{entry.name}</strong>
                  <span class="upcoming-date">{upcomingDate(entry.dateInformation)}</span>
                  {venue === undefined ? null : <span class="upcoming-venue">{venue}</span>}
                </li>
              );
            })}
          </ul>
        </section>
      )}
      {map === undefined ? null : (
        <section class="guide-section" data-testid="event-guide">
          <h3 class="guide-title">Event Guide</h3>
          <figure class="details-group guide-map">
            <img src={map} alt="Venue map" data-testid="image-venueMap" />
            <figcaption>Venue Map</figcaption>
          </figure>
        </section>
      )}
    </div>
  );
}
