import { computed } from '@preact/signals';
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { PassStyle } from '../../src/index.js';
import { type ImageLayout, type ImageName, imageLayout } from '../../src/index.js';
import {
  bestImage,
  checkImage,
  dropMissingImages,
  guidanceText,
  IMAGE_NAMES,
  imagePath,
  images,
  missingImages,
  removeImage,
  SCALES,
  setImage,
  slotUse,
} from '../images.js';
import { passStyle, STYLE_PHRASES } from '../lib/pass-style.js';
import { placeholderIcon } from '../lib/placeholder-icon.js';
import { shownPass } from '../state.js';

const PURPOSE: Readonly<Record<ImageName, string>> = {
  icon: 'Required. Shown in notifications and on the lock screen.',
  logo: 'Top left of the pass, beside the logo text.',
  strip: 'Behind the primary fields.',
  thumbnail: 'Beside the primary fields.',
  background: 'Blurred behind the whole front.',
  footer: 'Just above the barcode.',
  personalizationLogo: '',
  primaryLogo: 'Poster passes: top of the poster.',
  secondaryLogo: 'Poster event tickets: bottom corner.',
  artwork: 'Poster passes: the poster itself.',
  venueMap: 'Poster event tickets: the event guide.',
};

function Density({ name, scale, style }: { name: ImageName; scale: 1 | 2 | 3; style: ImageLayout }): JSX.Element {
  const path = imagePath(name, scale);
  const image = images.value.get(path);
  const [error, setError] = useState('');
  const [over, setOver] = useState(false);
  const take = async (file: File | undefined): Promise<void> => {
    if (file === undefined) return;
    setError('');
    try {
      await setImage(path, new Uint8Array(await file.arrayBuffer()));
    } catch (problem) {
      setError(problem instanceof Error ? problem.message : String(problem));
    }
  };
  const found = image === undefined ? [] : checkImage(name, style, scale, image);
  const id = `image-${name}-${scale}`;
  return (
    <div
      class={`density${over ? ' over' : ''}`}
      data-testid={`slot-${path}`}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        void take(event.dataTransfer?.files[0]);
      }}
    >
      <span class="density-name">@{scale}x</span>
      {image === undefined ? <span class="thumb empty-thumb" aria-hidden="true" /> : <img class="thumb" src={image.url} alt="" />}
      <span class="density-size" data-testid={`size-${path}`}>
        {image === undefined ? guidanceText(name, style, scale) : `${image.width}×${image.height}`}
      </span>
      {/* The input comes first so its keyboard focus can ring the label that stands for it. */}
      <input id={id} class="visually-hidden" type="file" accept="image/png,image/*" onChange={(event) => void take(event.currentTarget.files?.[0])} />
      <label class="file-button" for={id}>
        {image === undefined ? 'Choose' : 'Replace'}
        <span class="visually-hidden"> {path}</span>
      </label>
      {image === undefined ? null : (
        <button type="button" class="small" onClick={() => removeImage(path)}>
          Remove<span class="visually-hidden"> {path}</span>
        </button>
      )}
      {found.map((issue) => (
        <p key={issue.message} class={`image-issue ${issue.severity}`} data-testid={`image-issue-${path}`}>
          {issue.message}
        </p>
      ))}
      {error === '' ? null : <p class="image-issue error">{error}</p>}
    </div>
  );
}

function MakeIcon(): JSX.Element {
  const make = async (): Promise<void> => {
    const pass = shownPass.peek().pass ?? {};
    for (const scale of SCALES) await setImage(imagePath('icon', scale), await placeholderIcon(pass, scale));
  };
  return (
    <button type="button" class="small" data-testid="make-icon" onClick={() => void make()}>
      Make a stand-in icon from the pass's colors
    </button>
  );
}

// Only the style and the layouts asked for matter here: typing in the template does not re-render the slots.
const layoutKey = computed(() => JSON.stringify(imageLayout(shownPass.value.pass)));
const style = computed(() => passStyle(shownPass.value.pass));

/** One slot per image the pass's style shows, each at @1x, @2x and @3x. */
export function ImagesPanel(): JSX.Element {
  return <Slots style={style.value} layoutKey={layoutKey.value} />;
}

function Slots({ style, layoutKey }: { style: PassStyle; layoutKey: string }): JSX.Element {
  const layout = JSON.parse(layoutKey) as ImageLayout;
  const hasStrip = bestImage(images.value, 'strip') !== undefined;
  const missing = Object.keys(missingImages.value);
  return (
    <div class="images" data-testid="images-panel">
      <p class="hint">
        PNG (other formats are converted). Sizes are Apple's guidance for {STYLE_PHRASES[style]} in pixels; drop a file on a slot or choose one. Images are kept
        in this browser (IndexedDB); a share link names them by a short hash only.
      </p>
      {missing.length === 0 ? null : (
        <p class="warning-note" role="status" data-testid="missing-images">
          This link names {missing.length} image{missing.length === 1 ? '' : 's'} this browser does not have ({missing.join(', ')}): images travel in the link
          by reference only. Add them again, or ask for the .pkpass. The link keeps naming them until then.{' '}
          <button type="button" class="small" onClick={dropMissingImages}>
            Stop naming them
          </button>
        </p>
      )}
      {IMAGE_NAMES.map((name) => {
        const unused = slotUse(name, layout, hasStrip);
        const present = SCALES.some((scale) => images.value.has(imagePath(name, scale)));
        if (unused !== undefined && !present) return null;
        return (
          <fieldset key={name} class="slot" data-testid={`slot-${name}`}>
            <legend>
              {name}
              {name === 'icon' ? ' (required)' : ''}
            </legend>
            <p class="hint">{unused === undefined ? PURPOSE[name] : `Not shown: ${unused}.`}</p>
            {name === 'icon' && !present ? <MakeIcon /> : null}
            <div class="densities">
              {SCALES.map((scale) => (
                <Density key={scale} name={name} scale={scale} style={layout} />
              ))}
            </div>
          </fieldset>
        );
      })}
    </div>
  );
}
