import type { JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import type { Field, Pass, PassStructure, PassStyle } from '../../src/index.js';
import { shownColor, type ShownColor } from '../lib/colors.js';
import { cssTextAlign, formatFieldValue } from '../lib/field-format.js';
import { passStyle } from '../lib/pass-style.js';
import { frontLayout } from '../lib/wallet-layout.js';
import { useCutValues } from '../lib/cut-values.js';
import { BarcodeView } from './BarcodeView.js';
import { PassDetails } from './PassDetails.js';
import { TransitGlyph } from './TransitGlyph.js';

const STYLE_NAMES: Readonly<Record<PassStyle, string>> = {
  generic: 'Generic',
  eventTicket: 'Event ticket',
  coupon: 'Coupon',
  storeCard: 'Store card',
  boardingPass: 'Boarding pass',
};

/** Object URLs of the pass's images (the densest of each), by image name. */
export type CardImages = Readonly<
  Partial<Record<'icon' | 'logo' | 'strip' | 'thumbnail' | 'background' | 'footer' | 'artwork' | 'primaryLogo' | 'secondaryLogo' | 'venueMap', string>>
>;

/**
 * One field as a term and its definition (inside a row's `<dl>`), so a screen reader says
 * "Member, Grace Hopper" rather than one run of text; a field without a label has an
 * empty term, as Wallet shows no label.
 */
function FieldView({ field, row, path }: { field: Field; row: string; path: string }): JSX.Element {
  return (
    <div class={`field field-${row}`} style={{ textAlign: cssTextAlign(field.textAlignment) }} data-key={field.key} data-path={path}>
      {field.label === undefined ? <dt class="visually-hidden" /> : <dt class="field-label">{String(field.label)}</dt>}
      <dd class="field-value">{formatFieldValue(field)}</dd>
    </div>
  );
}

function Row({ fields, row, paths }: { fields: readonly Field[]; row: string; paths: FieldPaths }): JSX.Element | null {
  if (fields.length === 0) return null;
  return (
    <dl class={`row row-${row}${fields.length === 1 ? ' single' : ''}`} data-testid={`${row}-fields`}>
      {fields.map((field, index) => (
        <FieldView key={`${field.key}:${index}`} field={field} row={row} path={paths(field)} />
      ))}
    </dl>
  );
}

/** Front or back: the switch above every Apple view (the back is iOS's Pass Details screen). */
export function SideSwitch({ side, onSide, backCount }: { side: 'front' | 'back'; onSide: (side: 'front' | 'back') => void; backCount: number }): JSX.Element {
  return (
    <div class="card-flip" role="group" aria-label="Side of the pass">
      <button type="button" aria-pressed={side === 'front'} onClick={() => onSide('front')}>
        Front
      </button>
      <button type="button" aria-pressed={side === 'back'} onClick={() => onSide('back')} data-testid="show-back">
        Back ({backCount} field{backCount === 1 ? '' : 's'})
      </button>
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

/** A field's JSON Pointer in the pass (`/generic/secondaryFields/1`), found by identity in its structure. */
type FieldPaths = (field: Field) => string;

const AREAS = ['headerFields', 'primaryFields', 'secondaryFields', 'auxiliaryFields', 'backFields'] as const;

function fieldPaths(structure: PassStructure, style: PassStyle): FieldPaths {
  return (field) => {
    for (const area of AREAS) {
      const list = structure[area];
      const index = Array.isArray(list) ? list.indexOf(field) : -1;
      if (index >= 0) return `/${style}/${area}/${index}`;
    }
    return `/${style}`;
  };
}

/**
 * A pass as Wallet draws it: the style's layout and edges, its images in their
 * places, fields Wallet does not show left out (and counted), one-line values
 * cut with an ellipsis, the barcode at Wallet's proportions, and the back.
 */
export function PassCard({ pass, images, testId = 'pass-preview' }: { pass: Pass; images: CardImages; testId?: string }): JSX.Element {
  const [side, setSide] = useState<'front' | 'back'>('front');
  const style = passStyle(pass);
  const structure = (pass[style] ?? {}) as PassStructure;
  const background = shownColor(pass.backgroundColor);
  const foreground = shownColor(pass.foregroundColor);
  const label = shownColor(pass.labelColor);
  const barcode = pass.barcodes?.[0] ?? pass.barcode;
  const layout = frontLayout(structure, style, barcode?.format);
  const cardStyle: Record<string, string> = {};
  if (background !== undefined) cardStyle['backgroundColor'] = background.rgb;
  if (foreground !== undefined) cardStyle['--pass-fg'] = foreground.rgb;
  if (label !== undefined) cardStyle['--pass-label'] = label.rgb;
  // An event ticket with a strip shows neither background nor thumbnail.
  const strip = style === 'eventTicket' || style === 'coupon' || style === 'storeCard' ? images.strip : undefined;
  const backgroundImage = style === 'eventTicket' && strip === undefined ? images.background : undefined;
  const thumbnail = style === 'generic' || (style === 'eventTicket' && strip === undefined) ? images.thumbnail : undefined;
  const footer = style === 'boardingPass' ? images.footer : undefined;
  // The primary fields sit on the strip image when there is one; without it Wallet draws no band, only the pass's color.
  const stripStyle = strip !== undefined;
  const paths = fieldPaths(structure, style);
  const front = useRef<HTMLElement>(null);
  const cut = useCutValues(front, pass, side, testId === 'pass-preview');

  return (
    <>
      <SideSwitch side={side} onSide={setSide} backCount={layout.back.length} />
      {side === 'back' ? (
        <PassDetails pass={pass} fields={layout.back} icon={images.icon} />
      ) : (
        <article
          class={`pass pass-${style}${backgroundImage === undefined ? '' : ' has-background'}`}
          style={cardStyle}
          data-testid={testId}
          data-style={style}
          ref={front}
          aria-label={`${STYLE_NAMES[style]} pass preview`}
        >
          {backgroundImage === undefined ? null : <img class="pass-background" src={backgroundImage} alt="" data-testid="image-background" />}
          <header class="pass-header">
            {/* Without a logo image Wallet draws none: the logo text starts at the edge. */}
            {images.logo === undefined ? null : <img class="pass-logo-image" src={images.logo} alt="" data-testid="image-logo" />}
            <div class="pass-logo-text" data-testid="logo-text">
              {pass.logoText ?? ''}
            </div>
            <Row fields={layout.header} row="header" paths={paths} />
          </header>
          {style === 'boardingPass' ? (
            <dl class="row row-primary boarding" data-testid="primary-fields">
              {layout.primary[0] === undefined ? null : <FieldView field={layout.primary[0]} row="primary" path={paths(layout.primary[0])} />}
              {/* The glyph is a term of its own: "Transit, Air". */}
              <div class="transit-cell">
                <dt class="visually-hidden">Transit</dt>
                <dd>
                  <TransitGlyph transitType={structure.transitType} />
                </dd>
              </div>
              {layout.primary.slice(1).map((field, index) => (
                <FieldView key={`${field.key}:${index}`} field={{ ...field, textAlignment: 'PKTextAlignmentRight' }} row="primary" path={paths(field)} />
              ))}
            </dl>
          ) : (
            <div
              class={stripStyle ? `strip${strip === undefined ? '' : ' has-image'}` : 'primary-area'}
              style={strip === undefined ? undefined : { backgroundImage: `url("${strip}")` }}
              data-testid={strip === undefined ? undefined : 'image-strip'}
            >
              <Row fields={layout.primary} row="primary" paths={paths} />
              {thumbnail === undefined ? null : <img class="pass-thumbnail" src={thumbnail} alt="" data-testid="image-thumbnail" />}
            </div>
          )}
          {layout.rows.map((fields, index) => (
            <Row key={index} fields={fields} row={index === 0 ? 'secondary' : 'auxiliary'} paths={paths} />
          ))}
          {layout.hidden === 0 ? null : (
            <p class="hidden-fields" data-testid="hidden-fields">
              +{layout.hidden} field{layout.hidden === 1 ? '' : 's'} Wallet does not show
            </p>
          )}
          {cut.length === 0 ? null : (
            <p class="cut-note" data-testid="cut-note">
              Cut on the front: {cut.map((entry) => entry.name).join(', ')}
            </p>
          )}
          {footer === undefined ? null : <img class="pass-footer" src={footer} alt="" data-testid="image-footer" />}
          {barcode === undefined ? null : <BarcodeView barcode={barcode} reportIssues={testId === 'pass-preview'} />}
        </article>
      )}
      <ColorLegend colors={{ background, foreground, label }} />
    </>
  );
}
