import { computed, signal } from '@preact/signals';
import type { JSX } from 'preact';
import { bestImage, IMAGE_NAMES, images } from '../images.js';
import { shownPass } from '../state.js';
import { lazyComponent } from '../lib/lazy.js';
import { localizePass } from '../lib/localize.js';
import { previewLanguage, previewTable, stringsTexts } from '../localization-state.js';
import { type PosterLayout, posterLayout } from '../lib/poster.js';
import { type CardImages, PassCard } from './PassCard.js';
import { PosterCard } from './PosterCard.js';
import { PosterGuide } from './PosterGuide.js';

const cardImages = computed<CardImages>(() => {
  const map = images.value;
  return Object.fromEntries(IMAGE_NAMES.flatMap((name) => {
    const image = bestImage(map, name);
    return image === undefined ? [] : [[name, image.url]];
  }));
});

/** Which wallet the preview draws. */
export const walletView = signal<'apple' | 'google' | 'both'>('apple');

const Loading = (): JSX.Element => <p class="empty">Google Wallet's view is loading…</p>;
const GoogleView = lazyComponent<Record<string, never>>(() => import('./GoogleView.js').then((module) => module.GoogleView), Loading);

function LanguagePicker(): JSX.Element | null {
  const languages = Object.keys(stringsTexts.value);
  if (languages.length === 0) return null;
  return (
    <label class="preview-language">
      Language
      <select value={previewLanguage.value} onChange={(event) => (previewLanguage.value = event.currentTarget.value)} data-testid="preview-language">
        <option value="">The pass's own texts</option>
        {languages.map((language) => (
          <option key={language} value={language}>
            {language}
          </option>
        ))}
      </select>
    </label>
  );
}

function WalletSwitch(): JSX.Element {
  return (
    <div class="card-flip" role="group" aria-label="Which wallet">
      <button type="button" aria-pressed={walletView.value === 'apple'} onClick={() => (walletView.value = 'apple')} data-testid="show-apple">
        Apple Wallet
      </button>
      <button type="button" aria-pressed={walletView.value === 'google'} onClick={() => (walletView.value = 'google')} data-testid="show-google">
        Google Wallet
      </button>
      <button type="button" aria-pressed={walletView.value === 'both'} onClick={() => (walletView.value = 'both')} data-testid="show-both">
        Both
      </button>
    </div>
  );
}

/** Whether a poster pass is drawn as its poster or as the layout an older iPhone shows. */
export const posterView = signal<'poster' | 'fallback'>('poster');

function PosterSwitch({ layout }: { layout: PosterLayout }): JSX.Element {
  const older = layout.kind === 'posterGeneric' ? 'iOS 26 and earlier' : 'iOS 17 and earlier';
  return (
    <div class="card-flip" role="group" aria-label="Which iPhone">
      <button type="button" aria-pressed={posterView.value === 'poster'} onClick={() => (posterView.value = 'poster')} data-testid="show-poster">
        Poster ({layout.since}+)
      </button>
      <button type="button" aria-pressed={posterView.value === 'fallback'} onClick={() => (posterView.value = 'fallback')} data-testid="show-fallback">
        Older iPhone ({older})
      </button>
    </div>
  );
}

/** The pass as Wallet would show it, from the last pass that could be built, with the images of the slots. */
export function PassPreview({ testId = 'pass-preview' }: { testId?: string } = {}): JSX.Element {
  const { pass: own, stale } = shownPass.value;
  if (own === undefined) return <p class="empty">Fix the issues to see the pass.</p>;
  const table = previewTable.value;
  const pass = table === undefined ? own : localizePass(own, table);
  if (walletView.value === 'google') {
    return (
      <div class={stale ? 'preview stale' : 'preview'}>
        <WalletSwitch />
        <GoogleView />
      </div>
    );
  }
  const poster = posterLayout(pass);
  const drawPoster = poster !== undefined && poster.missing.length === 0 && posterView.value === 'poster';
  return (
    <div class={stale ? 'preview stale' : 'preview'}>
      {stale ? <p class="stale-note">Showing the last pass that could be built — see the issues.</p> : null}
      <WalletSwitch />
      <LanguagePicker />
      {poster === undefined ? null : <PosterSwitch layout={poster} />}
      {poster !== undefined && poster.missing.length > 0 && posterView.value === 'poster' ? (
        <p class="warning-note" data-testid="poster-fallback-note">
          Wallet cannot draw the poster: the pass lacks the semantic tag{poster.missing.length === 1 ? '' : 's'} {poster.missing.join(', ')}. Every iPhone shows the event ticket below.
        </p>
      ) : null}
      {drawPoster ? <PosterCard pass={pass} layout={poster} images={cardImages.value} /> : <PassCard pass={pass} images={cardImages.value} testId={testId} />}
      {drawPoster && poster.kind === 'posterEventTicket' ? <PosterGuide pass={pass} images={cardImages.value} /> : null}
      {walletView.value === 'both' ? <GoogleView /> : null}
    </div>
  );
}
