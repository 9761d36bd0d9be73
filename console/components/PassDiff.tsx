import type { JSX } from 'preact';
import type { Pass } from '../../src/index.js';
import { PassCard } from '../../playground/components/PassCard.js';

const STYLES = ['generic', 'eventTicket', 'coupon', 'storeCard', 'boardingPass'];
const isPass = (value: unknown): value is Pass =>
  typeof value === 'object' && value !== null && STYLES.some((style) => Object.hasOwn(value, style)) && Object.hasOwn(value, 'formatVersion');

function Side({ title, value }: { title: string; value: unknown }): JSX.Element {
  return (
    <figure class="diff-side">
      <figcaption>{title}</figcaption>
      {isPass(value) ? <PassCard pass={value} images={{}} testId={`diff-${title.toLowerCase()}`} /> : <pre class="json">{JSON.stringify(value, null, 2)}</pre>}
    </figure>
  );
}

/** One pass before and after a change, side by side (drawn when they are passes, else as JSON text). */
export function PassDiff({ serial, before, after }: { serial: string; before: unknown; after: unknown }): JSX.Element {
  return (
    <div class="pass-diff" data-testid="pass-diff">
      <p>
        For example, pass <code>{serial}</code>:
      </p>
      <div class="diff-sides">
        <Side title="Before" value={before} />
        <Side title="After" value={after} />
      </div>
    </div>
  );
}
