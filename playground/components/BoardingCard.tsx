import type { JSX } from 'preact';
import type { Pass } from '../../src/index.js';
import { shownColor } from '../lib/colors.js';
import { BarcodeView } from './BarcodeView.js';
import type { CardImages } from './PassCard.js';

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;

/** A date tag in the airport's own time zone, as the traveller reads the airport's clocks. */
function at(value: unknown, zone: unknown, options: Intl.DateTimeFormatOptions): string | undefined {
  const given = text(value);
  const date = given === undefined ? undefined : new Date(given);
  if (date === undefined || Number.isNaN(date.getTime())) return undefined;
  const timeZone = text(zone);
  try {
    return new Intl.DateTimeFormat(undefined, timeZone === undefined ? options : { ...options, timeZone }).format(date);
  } catch {
    return new Intl.DateTimeFormat(undefined, options).format(date);
  }
}

const TIME: Intl.DateTimeFormatOptions = { timeStyle: 'short' };
const DAY: Intl.DateTimeFormatOptions = { dateStyle: 'medium' };

/** `passengerName` (PersonNameComponents) as one line: given, middle and family names. */
function personName(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return text(value);
  const name = value as Record<string, unknown>;
  const parts = [name['namePrefix'], name['givenName'], name['middleName'], name['familyName'], name['nameSuffix']].map(text).filter((part) => part !== undefined);
  return parts.length === 0 ? text(name['nickname']) : parts.join(' ');
}

/** The first seat's identifier: `seatIdentifier`, else row and number ("23" + "A"). */
function seatOf(seats: unknown): string | undefined {
  const seat = Array.isArray(seats) ? (seats[0] as Record<string, unknown> | undefined) : undefined;
  if (typeof seat !== 'object' || seat === null) return undefined;
  return text(seat['seatIdentifier']) ?? ([text(seat['seatRow']), text(seat['seatNumber'])].filter((part) => part !== undefined).join('') || undefined);
}

function Detail({ name, value }: { name: string; value: string | undefined }): JSX.Element | null {
  if (value === undefined) return null;
  return (
    <div class="boarding-detail" data-detail={name.toLowerCase()}>
      <div class="field-label">{name}</div>
      <div class="field-value">{value}</div>
    </div>
  );
}

/**
 * A semantic boarding pass as iOS 26 draws it from its semantic tags, not its fields:
 * the airline's `primaryLogo` (else the logo text) and the flight (`airlineCode`
 * `flightNumber`); the departure and destination airport codes large, with their cities
 * and times — each in its airport's time zone (`departureLocationTimeZone`,
 * `destinationLocationTimeZone`; a `current…` date replaces the `original…` one); the
 * date; gate, terminal, boarding time, seat and zone or group; the passenger; the barcode.
 */
export function BoardingCard({ pass, images }: { pass: Pass; images: CardImages }): JSX.Element {
  const tags = (pass.semantics ?? {}) as Record<string, unknown>;
  const background = shownColor(pass.backgroundColor);
  const foreground = shownColor(pass.foregroundColor);
  const label = shownColor(pass.labelColor);
  const style: Record<string, string> = {};
  if (background !== undefined) style['backgroundColor'] = background.rgb;
  if (foreground !== undefined) style['--pass-fg'] = foreground.rgb;
  if (label !== undefined) style['--pass-label'] = label.rgb;
  const departureZone = tags['departureLocationTimeZone'];
  const arrivalZone = tags['destinationLocationTimeZone'];
  const departure = tags['currentDepartureDate'] ?? tags['originalDepartureDate'];
  const arrival = tags['currentArrivalDate'] ?? tags['originalArrivalDate'];
  const boarding = tags['currentBoardingDate'] ?? tags['originalBoardingDate'];
  const flight = [text(tags['airlineCode']), text(tags['flightNumber'])].filter((part) => part !== undefined).join(' ');
  const zone = text(tags['boardingZone']);
  const barcode = pass.barcodes?.[0] ?? pass.barcode;
  return (
    <article class="pass semantic-boarding" style={style} data-testid="semantic-boarding-preview" aria-label="Semantic boarding pass preview">
      <header class="boarding-head">
        {images.primaryLogo === undefined ? <div class="pass-logo-text">{pass.logoText ?? ''}</div> : <img class="poster-logo" src={images.primaryLogo} alt="" data-testid="image-primaryLogo" />}
        <div class="boarding-flight" data-testid="boarding-flight">{flight}</div>
      </header>
      <div class="boarding-route">
        <div class="boarding-end" data-end="departure">
          <div class="boarding-code">{text(tags['departureAirportCode']) ?? ''}</div>
          <div class="boarding-city">{text(tags['departureCityName']) ?? ''}</div>
          <div class="boarding-time">{at(departure, departureZone, TIME) ?? ''}</div>
        </div>
        <div class="boarding-plane" aria-hidden="true">✈</div>
        <div class="boarding-end" data-end="destination">
          <div class="boarding-code">{text(tags['destinationAirportCode']) ?? ''}</div>
          <div class="boarding-city">{text(tags['destinationCityName']) ?? ''}</div>
          <div class="boarding-time">{at(arrival, arrivalZone, TIME) ?? ''}</div>
        </div>
      </div>
      <p class="boarding-date">{at(departure, departureZone, DAY) ?? ''}</p>
      <div class="boarding-details">
        <Detail name="Gate" value={text(tags['departureGate'])} />
        <Detail name="Terminal" value={text(tags['departureTerminal'])} />
        <Detail name="Boarding" value={at(boarding, departureZone, TIME)} />
        <Detail name="Seat" value={seatOf(tags['seats'])} />
        <Detail name={zone === undefined ? 'Group' : 'Zone'} value={zone ?? text(tags['boardingGroup'])} />
      </div>
      <Detail name="Passenger" value={personName(tags['passengerName'])} />
      {barcode === undefined ? null : <BarcodeView barcode={barcode} />}
    </article>
  );
}
