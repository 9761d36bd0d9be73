import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Field, Pass, PassStructure, PassStyle } from '../../src/index.js';
import { shownColor, type ShownColor } from '../lib/colors.js';
import { cssTextAlign, formatFieldValue } from '../lib/field-format.js';
import { shownPass } from '../state.js';
import { BarcodeView } from './BarcodeView.js';

const STYLES: readonly PassStyle[] = ['generic', 'eventTicket', 'coupon', 'storeCard', 'boardingPass'];
const STYLE_NAMES: Readonly<Record<PassStyle, string>> = {
  generic: 'Generic',
  eventTicket: 'Event ticket',
  coupon: 'Coupon',
  storeCard: 'Store card',
  boardingPass: 'Boarding pass',
};
const TRANSIT_ICONS: Readonly<Record<string, string>> = {
  PKTransitTypeAir: '✈',
  PKTransitTypeTrain: '🚆',
  PKTransitTypeBus: '🚌',
  PKTransitTypeBoat: '⛴',
  PKTransitTypeGeneric: '→',
};

function fieldsOf(structure: PassStructure, key: keyof PassStructure): readonly Field[] {
  const fields = structure[key];
  return Array.isArray(fields) ? fields.filter((field): field is Field => typeof field === 'object' && field !== null) : [];
}

function FieldView({ field, row }: { field: Field; row: string }): JSX.Element {
  return (
    <div class={`field field-${row}`} style={{ textAlign: cssTextAlign(field.textAlignment) }} data-key={field.key}>
      {field.label === undefined ? null : <div class="field-label">{String(field.label)}</div>}
      <div class="field-value">{formatFieldValue(field)}</div>
    </div>
  );
}

function Row({ fields, row }: { fields: readonly Field[]; row: string }): JSX.Element | null {
  if (fields.length === 0) return null;
  return (
    <div class={`row row-${row}`} data-testid={`${row}-fields`}>
      {fields.map((field, index) => (
        <FieldView key={`${field.key}:${index}`} field={field} row={row} />
      ))}
    </div>
  );
}

function ColorLegend({ colors }: { colors: Readonly<Record<string, ShownColor | undefined>> }): JSX.Element {
  return (
    <dl class="color-legend" aria-label="Pass colors">
      {Object.entries(colors).map(([name, color]) => (
        <div key={name}>
          <dt>
            <span class="swatch" style={color === undefined ? undefined : { backgroundColor: color.rgb }} aria-hidden="true" />
            {name}
          </dt>
          {color === undefined ? (
            <dd class="wide">default</dd>
          ) : (
            <>
              <dd>
                <code>{color.hex}</code>
              </dd>
              <dd>
                <code>{color.rgb}</code>
              </dd>
            </>
          )}
        </div>
      ))}
    </dl>
  );
}

// The back is drawn only while open: a long back costs nothing while typing.
function BackFields({ fields }: { fields: readonly Field[] }): JSX.Element | null {
  const [open, setOpen] = useState(false);
  if (fields.length === 0) return null;
  return (
    <details class="pass-back" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        Back of the pass ({fields.length} field{fields.length === 1 ? '' : 's'})
      </summary>
      {open ? (
        <dl>
          {fields.map((field, index) => (
            <div key={`${field.key}:${index}`}>
              <dt>{field.label ?? field.key}</dt>
              <dd>{formatFieldValue(field)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </details>
  );
}

function Card({ pass, style }: { pass: Pass; style: PassStyle }): JSX.Element {
  const structure = (pass[style] ?? {}) as PassStructure;
  const background = shownColor(pass.backgroundColor);
  const foreground = shownColor(pass.foregroundColor);
  const label = shownColor(pass.labelColor);
  const barcode = pass.barcodes?.[0] ?? pass.barcode;
  const primary = fieldsOf(structure, 'primaryFields');
  const back = fieldsOf(structure, 'backFields');
  const cardStyle: Record<string, string> = {};
  if (background !== undefined) cardStyle['backgroundColor'] = background.rgb;
  if (foreground !== undefined) cardStyle['--pass-fg'] = foreground.rgb;
  if (label !== undefined) cardStyle['--pass-label'] = label.rgb;

  return (
    <>
      <article
        class={`pass pass-${style}`}
        style={cardStyle}
        data-testid="pass-preview"
        data-style={style}
        aria-label={`${STYLE_NAMES[style]} pass preview`}
      >
        <header class="pass-header">
          <div class="pass-logo" aria-hidden="true" />
          <div class="pass-logo-text" data-testid="logo-text">
            {pass.logoText ?? ''}
          </div>
          <Row fields={fieldsOf(structure, 'headerFields')} row="header" />
        </header>
        {style === 'boardingPass' ? (
          <div class="row row-primary boarding" data-testid="primary-fields">
            {primary[0] === undefined ? null : <FieldView field={primary[0]} row="primary" />}
            <div class="transit" aria-label={String(structure.transitType ?? 'transit')}>
              {TRANSIT_ICONS[String(structure.transitType)] ?? '→'}
            </div>
            {primary.slice(1).map((field, index) => (
              <FieldView key={`${field.key}:${index}`} field={{ ...field, textAlignment: 'PKTextAlignmentRight' }} row="primary" />
            ))}
          </div>
        ) : (
          <div class={style === 'coupon' || style === 'storeCard' || style === 'eventTicket' ? 'strip' : 'primary-area'}>
            <Row fields={primary} row="primary" />
          </div>
        )}
        <Row fields={fieldsOf(structure, 'secondaryFields')} row="secondary" />
        <Row fields={fieldsOf(structure, 'auxiliaryFields')} row="auxiliary" />
        {barcode === undefined ? null : <BarcodeView barcode={barcode} />}
      </article>
      <ColorLegend colors={{ background, foreground, label }} />
      <BackFields fields={back} />
    </>
  );
}

/** The pass as Wallet would show it, from the last pass that could be built. */
export function PassPreview(): JSX.Element {
  const { pass, stale } = shownPass.value;
  if (pass === undefined) return <p class="empty">Fix the issues to see the pass.</p>;
  const style = STYLES.find((candidate) => pass[candidate] !== undefined) ?? 'generic';
  return (
    <div class={stale ? 'preview stale' : 'preview'}>
      {stale ? <p class="stale-note">Showing the last pass that could be built — see the issues.</p> : null}
      <Card pass={pass} style={style} />
    </div>
  );
}
