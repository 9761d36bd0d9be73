import type { JSX } from 'preact';
import type { Field, Pass } from '../../src/index.js';
import { shownColor } from '../lib/colors.js';
import { formatFieldValue } from '../lib/field-format.js';
import { type PosterLayout, posterStructure } from '../lib/poster.js';
import { BarcodeView } from './BarcodeView.js';
import type { CardImages } from './PassCard.js';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function eventDate(value: unknown): string | undefined {
  const given = text(value);
  if (given === undefined) return undefined;
  return formatFieldValue({ key: 'date', value: given, dateStyle: 'PKDateStyleMedium', timeStyle: 'PKDateStyleShort', ignoresTimeZone: true });
}

/** A poster's field: its label and value as a term and definition, as a screen reader should pair them. */
function PosterField({ field, big = false }: { field: Field; big?: boolean }): JSX.Element {
  return (
    <dl class={big ? 'poster-field big' : 'poster-field'} data-key={field.key}>
      {field.label === undefined ? <dt class="visually-hidden" /> : <dt class="field-label">{String(field.label)}</dt>}
      <dd class="field-value">{formatFieldValue(field)}</dd>
    </dl>
  );
}

/**
 * The seating and entry line of a poster event ticket's footer: `admissionLevel` (say
 * "General Admission") and the first of `seats` — section, row, seat — edged in its
 * `seatSectionColor`; nothing when the pass has neither.
 */
function Seating({ semantics }: { semantics: Record<string, unknown> }): JSX.Element | null {
  const seat =
    Array.isArray(semantics['seats']) && typeof semantics['seats'][0] === 'object' && semantics['seats'][0] !== null
      ? (semantics['seats'][0] as Record<string, unknown>)
      : {};
  const admission = text(semantics['admissionLevel']);
  const parts = (
    [
      ['Section', seat['seatSection']],
      ['Row', seat['seatRow']],
      ['Seat', seat['seatNumber']],
    ] as const
  ).flatMap(([label, value]) => {
    const shown = text(value) ?? (typeof value === 'number' ? String(value) : undefined);
    return shown === undefined ? [] : [[label, shown] as const];
  });
  if (admission === undefined && parts.length === 0) return null;
  const color = shownColor(typeof seat['seatSectionColor'] === 'string' ? seat['seatSectionColor'] : undefined);
  return (
    <dl class="poster-seating" data-testid="poster-seating" style={color === undefined ? undefined : { borderColor: color.rgb }}>
      {admission === undefined ? null : (
        <div class="poster-admission-row">
          <dt class="visually-hidden">Admission</dt>
          <dd class="poster-admission" data-testid="poster-admission">
            {admission}
          </dd>
        </div>
      )}
      {parts.map(([label, value]) => (
        <div key={label} class="poster-field" data-seat={label.toLowerCase()}>
          <dt class="field-label">{label}</dt>
          <dd class="field-value">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A poster pass as iOS 18 (event ticket) and iOS 27 (`posterGeneric`) draw it: the
 * artwork full-bleed (else the background color), the primary logo or the event's
 * logo text on top, the poster's title from the semantic tags (event name,
 * performers or teams, date, venue and room) or the posterGeneric's fields, and a
 * footer in `footerBackgroundColor` with the seating (event ticket) and the barcode.
 */
export function PosterCard({ pass, layout, images }: { pass: Pass; layout: PosterLayout; images: CardImages }): JSX.Element {
  const semantics = (pass.semantics ?? {}) as Record<string, unknown>;
  const structure = posterStructure(pass, layout);
  const background = shownColor(pass.backgroundColor);
  const foreground = shownColor(pass.foregroundColor);
  const label = shownColor(pass.labelColor);
  const footerColor = shownColor(pass.footerBackgroundColor);
  const style: Record<string, string> = {};
  if (background !== undefined) style['backgroundColor'] = background.rgb;
  if (foreground !== undefined) style['--pass-fg'] = foreground.rgb;
  if (label !== undefined) style['--pass-label'] = label.rgb;
  const art = images.artwork ?? images.background;
  const barcode = pass.barcodes?.[0] ?? pass.barcode;
  const logoText = text(pass.eventLogoText) ?? text(pass.logoText) ?? '';
  const header = structure.headerFields?.[0];

  let title: JSX.Element;
  if (layout.kind === 'posterEventTicket') {
    const away = text(semantics['awayTeamAbbreviation']);
    const home = text(semantics['homeTeamAbbreviation']);
    const performers = Array.isArray(semantics['performerNames'])
      ? (semantics['performerNames'] as unknown[]).filter((name): name is string => typeof name === 'string')
      : [];
    const venue = [text(semantics['venueName']), text(semantics['venueRoom'])].filter((part) => part !== undefined).join(' · ');
    title = (
      <div class="poster-title" data-testid="poster-title">
        {away !== undefined && home !== undefined ? <p class="poster-teams">{`${away} vs ${home}`}</p> : null}
        <h3 class="poster-event-name">{text(semantics['eventName']) ?? ''}</h3>
        {performers.length === 0 ? null : <p class="poster-performers">{performers.join(', ')}</p>}
        {eventDate(semantics['eventStartDate']) === undefined ? null : <p class="poster-date">{eventDate(semantics['eventStartDate'])}</p>}
        {venue === '' ? null : (
          <p class="poster-venue">
            {venue}
            {text(semantics['venueRegionName']) === undefined ? '' : `, ${text(semantics['venueRegionName'])}`}
          </p>
        )}
      </div>
    );
  } else {
    title = (
      <div class="poster-title" data-testid="poster-title">
        {(structure.primaryFields ?? []).slice(0, 4).map((field, index) => (
          <PosterField key={`${field.key}:${index}`} field={field} big={index === 0} />
        ))}
      </div>
    );
  }
  const footerField = layout.kind === 'posterGeneric' ? structure.footerFields?.[0] : undefined;
  const seating = layout.kind === 'posterEventTicket' ? <Seating semantics={semantics} /> : null;
  return (
    <article
      class="pass poster"
      style={style}
      data-testid="poster-preview"
      data-poster={layout.kind}
      aria-label={`${layout.kind === 'posterGeneric' ? 'Poster generic' : 'Poster event ticket'} pass preview`}
    >
      {art === undefined ? null : <img class="poster-art" src={art} alt="" data-testid="image-artwork" />}
      <header class="poster-head">
        {images.primaryLogo === undefined ? (
          <div class="pass-logo-text">{logoText}</div>
        ) : (
          <img class="poster-logo" src={images.primaryLogo} alt="" data-testid="image-primaryLogo" />
        )}
        {header === undefined ? null : <PosterField field={header} />}
      </header>
      {title}
      <footer class="poster-footer" style={footerColor === undefined ? undefined : { backgroundColor: footerColor.rgb }}>
        {footerField === undefined ? null : <PosterField field={footerField} />}
        {seating}
        {barcode === undefined ? null : <BarcodeView barcode={barcode} />}
        {images.secondaryLogo === undefined || layout.kind !== 'posterEventTicket' ? null : (
          <img class="poster-secondary-logo" src={images.secondaryLogo} alt="" data-testid="image-secondaryLogo" />
        )}
      </footer>
    </article>
  );
}
