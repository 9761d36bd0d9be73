import { computed } from '@preact/signals';
import type { JSX } from 'preact';
import { bestImage, IMAGE_NAMES, images } from '../images.js';
import { shownPass } from '../state.js';
import { type CardImages, PassCard } from './PassCard.js';

const cardImages = computed<CardImages>(() => {
  const map = images.value;
  return Object.fromEntries(IMAGE_NAMES.flatMap((name) => {
    const image = bestImage(map, name);
    return image === undefined ? [] : [[name, image.url]];
  }));
});

/** The pass as Wallet would show it, from the last pass that could be built, with the images of the slots. */
export function PassPreview({ testId = 'pass-preview' }: { testId?: string } = {}): JSX.Element {
  const { pass, stale } = shownPass.value;
  if (pass === undefined) return <p class="empty">Fix the issues to see the pass.</p>;
  return (
    <div class={stale ? 'preview stale' : 'preview'}>
      {stale ? <p class="stale-note">Showing the last pass that could be built — see the issues.</p> : null}
      <PassCard pass={pass} images={cardImages.value} testId={testId} />
    </div>
  );
}
