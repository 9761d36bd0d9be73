import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { ErrorNote, Loading, When } from '../components/Notes.js';
import { Pager } from '../components/Pager.js';
import { getJson, type Page } from '../lib/api.js';
import { can } from '../lib/session.js';
import { useLoad } from '../lib/use-load.js';

interface Webhook {
  readonly id: string;
  readonly url: string;
  readonly state: string;
  readonly stateReason: string | null;
  readonly events: readonly string[] | null;
  readonly created: string;
  readonly secret?: string;
}

interface Delivery {
  readonly id: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly status: string;
  readonly attempts: number;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  readonly deliveredAt: string | null;
  readonly nextAttemptAt: string | null;
  readonly history: readonly { at: string; outcome: string; status: number | null; error: string | null; durationMs?: number }[];
}

function Deliveries({ webhook }: { webhook: Webhook }): JSX.Element {
  const [cursors, setCursors] = useState<readonly string[]>([]);
  const [replayed, setReplayed] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const before = cursors[cursors.length - 1];
  const { data, error: loadError } = useLoad(
    () => getJson<Page<Delivery>>(`/v1/webhooks/${webhook.id}/deliveries?limit=20${before === undefined ? '' : `&before=${before}`}`),
    [webhook.id, before],
  );
  const replay = (eventId: string): void => {
    setError(undefined);
    getJson(`/v1/events/${encodeURIComponent(eventId)}/replay`, { method: 'POST' }).then(() => setReplayed(`Event ${eventId} is sent again.`), setError);
  };
  return (
    <div class="deliveries">
      <ErrorNote error={loadError ?? error} />
      <p class="note" role="status">
        {replayed}
      </p>
      {data === undefined ? null : data.items.length === 0 ? (
        <p class="note">No deliveries yet.</p>
      ) : (
        <ul class="plain" data-testid="deliveries">
          {data.items.map((delivery) => (
            <li key={delivery.id} class="delivery">
              <p>
                <span class="badge">{delivery.status}</span> <code>{delivery.eventType}</code> — {delivery.attempts} attempt
                {delivery.attempts === 1 ? '' : 's'}
                {delivery.lastStatus === null ? '' : `, last answered ${delivery.lastStatus}`}
                {delivery.lastError === null ? '' : `, ${delivery.lastError}`}
                {can('admin') ? (
                  <>
                    {' '}
                    <button type="button" onClick={() => replay(delivery.eventId)} data-testid="replay">
                      Replay
                    </button>
                  </>
                ) : null}
              </p>
              {delivery.history.length === 0 ? null : (
                <ol class="attempts">
                  {delivery.history.map((attempt, index) => (
                    <li key={index}>
                      <When at={attempt.at} /> {attempt.outcome}
                      {attempt.status === null ? '' : ` ${attempt.status}`}
                      {attempt.error === null ? '' : ` — ${attempt.error}`}
                      {attempt.durationMs === undefined ? '' : ` (${attempt.durationMs} ms)`}
                    </li>
                  ))}
                </ol>
              )}
            </li>
          ))}
        </ul>
      )}
      {data === undefined ? null : <Pager cursors={cursors} next={data.next} onPage={setCursors} />}
    </div>
  );
}

function WebhookItem({ webhook, onChanged }: { webhook: Webhook; onChanged: () => void }): JSX.Element {
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const rotate = (): void => {
    if (!confirm('Make a new signing secret? The receiver must be told it: the old one stops verifying soon.')) return;
    setError(undefined);
    getJson<Webhook>(`/v1/webhooks/${webhook.id}/secret`, { method: 'POST' }).then((answer) => setSecret(answer.secret), setError);
  };
  const disable = (): void => {
    setError(undefined);
    getJson(`/v1/webhooks/${webhook.id}/disable`, { method: 'POST' }).then(onChanged, setError);
  };
  return (
    <li class="panel webhook" data-testid="webhook">
      <h2 class="wrap">{webhook.url}</h2>
      <p>
        <span class="badge">{webhook.state}</span>
        {webhook.stateReason === null ? '' : ` ${webhook.stateReason}`} · events: {webhook.events === null ? 'all' : webhook.events.join(', ')} · since{' '}
        <When at={webhook.created} />
      </p>
      <p class="actions">
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide deliveries' : 'Deliveries'}
        </button>
        {can('admin') ? (
          <>
            <button type="button" onClick={rotate} data-testid="rotate-secret">
              Rotate the secret
            </button>
            {webhook.state === 'disabled' ? null : (
              <button type="button" onClick={disable}>
                Disable
              </button>
            )}
          </>
        ) : null}
      </p>
      {secret === undefined ? null : (
        <div class="once" role="alert" data-testid="new-secret">
          <p>The new secret, shown this once — copy it to the receiver now:</p>
          <p>
            <code class="wrap">{secret}</code>
          </p>
          <button type="button" onClick={() => setSecret(undefined)}>
            I have copied it
          </button>
        </div>
      )}
      <ErrorNote error={error} />
      {open ? <Deliveries webhook={webhook} /> : null}
    </li>
  );
}

function NewWebhook({ onCreated }: { onCreated: () => void }): JSX.Element {
  const [error, setError] = useState<unknown>(undefined);
  const [secret, setSecret] = useState<string | undefined>(undefined);
  const create = (event: SubmitEvent): void => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const url = (form.elements.namedItem('url') as HTMLInputElement).value.trim();
    setError(undefined);
    getJson<Webhook>('/v1/webhooks', { method: 'POST', json: { url } }).then((created) => {
      form.reset();
      setSecret(created.secret);
      onCreated();
    }, setError);
  };
  return (
    <form class="inline-form" onSubmit={create} data-testid="new-webhook">
      <label for="webhook-url">Receiver URL</label>
      <input id="webhook-url" name="url" type="url" required placeholder="https://example.com/passmint" />
      <button type="submit">Register</button>
      {secret === undefined ? null : (
        <div class="once" role="alert">
          <p>Its signing secret, shown this once:</p>
          <p>
            <code class="wrap">{secret}</code>
          </p>
        </div>
      )}
      <ErrorNote error={error} />
    </form>
  );
}

/** Webhook registrations, their deliveries with attempts, replay, rotate the secret. */
export function WebhooksPage(): JSX.Element {
  const { data, error, loading, reload } = useLoad(() => getJson<Page<Webhook>>('/v1/webhooks?limit=100'), []);
  return (
    <>
      <h1 tabIndex={-1}>Webhooks</h1>
      {can('admin') ? <NewWebhook onCreated={reload} /> : null}
      {loading && data === undefined ? <Loading /> : null}
      <ErrorNote error={error} />
      {data === undefined ? null : data.items.length === 0 ? (
        <p class="note">No webhook registered.</p>
      ) : (
        <ul class="plain" data-testid="webhooks">
          {data.items.map((webhook) => (
            <WebhookItem key={webhook.id} webhook={webhook} onChanged={reload} />
          ))}
        </ul>
      )}
    </>
  );
}
