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
  const parts = [name['namePrefix'], name['givenName'], name['middleName'], name['familyName'], name['nameSuffix']]
    .map(text)
    .filter((part) => part !== undefined);
  return parts.length === 0 ? text(name['nickname']) : parts.join(' ');
}

/** The first seat's identifier: `seatIdentifier`, else row and number ("23" + "A"). */
function seatOf(seats: unknown): string | undefined {
  const seat = Array.isArray(seats) ? (seats[0] as Record<string, unknown> | undefined) : undefined;
  if (typeof seat !== 'object' || seat === null) return undefined;
  return text(seat['seatIdentifier']) ?? ([text(seat['seatRow']), text(seat['seatNumber'])].filter((part) => part !== undefined).join('') || undefined);
}

/** One detail as a term and its definition (inside a `<dl>`): "Gate, B12". */
function Detail({ name, value }: { name: string; value: string | undefined }): JSX.Element | null {
  if (value === undefined) return null;
  return (
    <div class="boarding-detail" data-detail={name.toLowerCase()}>
      <dt class="field-label">{name}</dt>
      <dd class="field-value">{value}</dd>
    </div>
  );
}

/** An end of the route: "From, LIS Lisbon 9:55 AM". */
function End({ end, code, city, time }: { end: 'departure' | 'destination'; code: unknown; city: unknown; time: string | undefined }): JSX.Element {
  return (
    <div class="boarding-end" data-end={end}>
      <dt class="visually-hidden">{end === 'departure' ? 'From' : 'To'}</dt>
      <dd>
        <div class="boarding-code">{text(code) ?? ''}</div>
        <div class="boarding-city">{text(city) ?? ''}</div>
        <div class="boarding-time">{time ?? ''}</div>
      </dd>
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
        {images.primaryLogo === undefined ? (
          <div class="pass-logo-text">{pass.logoText ?? ''}</div>
        ) : (
          <img class="poster-logo" src={images.primaryLogo} alt="" data-testid="image-primaryLogo" />
        )}
        <div class="boarding-flight" data-testid="boarding-flight">
          {flight}
        </div>
      </header>
      {/* The plane between the airports is drawn by the stylesheet (a <dl> holds only its terms and definitions). */}
      <dl class="boarding-route">
        <End end="departure" code={tags['departureAirportCode']} city={tags['departureCityName']} time={at(departure, departureZone, TIME)} />
        <End end="destination" code={tags['destinationAirportCode']} city={tags['destinationCityName']} time={at(arrival, arrivalZone, TIME)} />
      </dl>
      <p class="boarding-date">{at(departure, departureZone, DAY) ?? ''}</p>
      <dl class="boarding-details">
        <Detail name="Gate" value={text(tags['departureGate'])} />
        <Detail name="Terminal" value={text(tags['departureTerminal'])} />
        <Detail name="Boarding" value={at(boarding, departureZone, TIME)} />
        <Detail name="Seat" value={seatOf(tags['seats'])} />
        <Detail name={zone === undefined ? 'Group' : 'Zone'} value={zone ?? text(tags['boardingGroup'])} />
        <Detail name="Passenger" value={personName(tags['passengerName'])} />
      </dl>
      {barcode === undefined ? null : <BarcodeView barcode={barcode} />}
    </article>
  );
}
