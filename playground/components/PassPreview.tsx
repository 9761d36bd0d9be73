import { computed, signal } from '@preact/signals';
import type { ComponentChildren, JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { Field, Pass } from '../../src/index.js';
import { bestImage, IMAGE_NAMES, images } from '../images.js';
import { shownPass } from '../state.js';
import { lazyComponent } from '../lib/lazy.js';
import { localizePass } from '../lib/localize.js';
import { previewLanguage, previewTable, stringsTexts } from '../localization-state.js';
import { type PosterLayout, posterLayout, posterStructure } from '../lib/poster.js';
import { type CardImages, PassCard, SideSwitch } from './PassCard.js';
import { PassDetails } from './PassDetails.js';
import { PosterCard } from './PosterCard.js';
import { PosterGuide } from './PosterGuide.js';
import { BoardingCard } from './BoardingCard.js';

const cardImages = computed<CardImages>(() => {
  const map = images.value;
  return Object.fromEntries(
    IMAGE_NAMES.flatMap((name) => {
      const image = bestImage(map, name);
      return image === undefined ? [] : [[name, image.url]];
    }),
  );
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

const OLDER: Readonly<Record<PosterLayout['kind'], string>> = {
  posterEventTicket: 'iOS 17 and earlier',
  semanticBoardingPass: 'iOS 18 and earlier',
  posterGeneric: 'iOS 26 and earlier',
};

function PosterSwitch({ layout }: { layout: PosterLayout }): JSX.Element {
  return (
    <div class="card-flip" role="group" aria-label="Which iPhone">
      <button type="button" aria-pressed={posterView.value === 'poster'} onClick={() => (posterView.value = 'poster')} data-testid="show-poster">
        {layout.kind === 'semanticBoardingPass' ? 'Semantic' : 'Poster'} ({layout.since}+)
      </button>
      <button type="button" aria-pressed={posterView.value === 'fallback'} onClick={() => (posterView.value = 'fallback')} data-testid="show-fallback">
        Older iPhone ({OLDER[layout.kind]})
      </button>
    </div>
  );
}

const isField = (value: unknown): value is Field => typeof value === 'object' && value !== null && typeof (value as { key?: unknown }).key === 'string';

/**
 * A poster or a semantic boarding pass with its back: the same Pass Details screen (opened
 * from the "…" button) as every other pass, with the back fields of the structure it is drawn from.
 */
function WithBack({ pass, layout, icon, children }: { pass: Pass; layout: PosterLayout; icon: string | undefined; children: ComponentChildren }): JSX.Element {
  const [side, setSide] = useState<'front' | 'back'>('front');
  const back = (posterStructure(pass, layout).backFields ?? []).filter(isField);
  return (
    <>
      <SideSwitch side={side} onSide={setSide} backCount={back.length} />
      {side === 'back' ? <PassDetails pass={pass} fields={back} icon={icon} /> : children}
    </>
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
  const drawable = poster !== undefined && poster.missing.length === 0 && poster.reason === undefined;
  const drawPoster = drawable && posterView.value === 'poster';
  const what =
    poster?.kind === 'semanticBoardingPass'
      ? { layout: 'the semantic boarding pass', older: 'boarding pass' }
      : { layout: 'the poster', older: 'event ticket' };
  return (
    <div class={stale ? 'preview stale' : 'preview'}>
      {stale ? <p class="stale-note">Showing the last pass that could be built — see the issues.</p> : null}
      <WalletSwitch />
      <LanguagePicker />
      {poster === undefined ? null : <PosterSwitch layout={poster} />}
      {poster !== undefined && !drawable && posterView.value === 'poster' ? (
        <p class="warning-note" data-testid="poster-fallback-note">
          Wallet cannot draw {what.layout}: {poster.reason ?? ''}
          {poster.reason !== undefined && poster.missing.length > 0 ? '; ' : ''}
          {poster.missing.length === 0 ? '' : `the pass lacks the semantic tag${poster.missing.length === 1 ? '' : 's'} ${poster.missing.join(', ')}`}. Every
          iPhone shows the {what.older} below.
        </p>
      ) : null}
      {!drawPoster ? (
        <PassCard pass={pass} images={cardImages.value} testId={testId} />
      ) : (
        <WithBack pass={pass} layout={poster} icon={cardImages.value.icon}>
          {poster.kind === 'semanticBoardingPass' ? (
            <BoardingCard pass={pass} images={cardImages.value} />
          ) : (
            <PosterCard pass={pass} layout={poster} images={cardImages.value} />
          )}
          {poster.kind === 'posterEventTicket' ? <PosterGuide pass={pass} images={cardImages.value} /> : null}
        </WithBack>
      )}
      {walletView.value === 'both' ? <GoogleView /> : null}
    </div>
  );
}
