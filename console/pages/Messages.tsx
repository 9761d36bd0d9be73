import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { ErrorNote, Loading, TableScroll, When } from '../components/Notes.js';
import { TemplatePicker } from '../components/TemplatePicker.js';
import { getJson, type Page } from '../lib/api.js';
import { can } from '../lib/session.js';
import { allTemplates } from '../lib/templates.js';
import { useLoad } from '../lib/use-load.js';

interface Message {
  readonly id: string;
  readonly header: string;
  readonly body: string;
  readonly passes?: number;
  readonly created?: string;
  readonly filter?: Readonly<Record<string, string>>;
  readonly job?: { id: string; state: string; done?: number; failed?: number } | null;
}

/** The message as each wallet shows it: Apple's lock-screen notification, Google's message on the pass. */
function MessagePreview({ header, body, organization }: { header: string; body: string; organization: string }): JSX.Element {
  return (
    <div class="message-previews" data-testid="message-preview">
      <figure class="message-apple">
        <figcaption>Apple Wallet (lock screen)</figcaption>
        <div class="notification">
          <p class="notification-app">{organization}</p>
          <p class="notification-text">
            <strong>{header === '' ? 'Header' : header}</strong>
          </p>
          <p class="notification-text">{body === '' ? 'The message text.' : body}</p>
        </div>
      </figure>
      <figure class="message-google">
        <figcaption>Google Wallet (on the pass)</figcaption>
        <div class="google-message">
          <p>
            <strong>{header === '' ? 'Header' : header}</strong>
          </p>
          <p>{body === '' ? 'The message text.' : body}</p>
        </div>
      </figure>
    </div>
  );
}

function History({ templateId, round }: { templateId: number; round: number }): JSX.Element {
  const { data, error, loading } = useLoad(() => getJson<Page<Message>>(`/v1/templates/${templateId}/messages?limit=25`), [templateId, round]);
  return (
    <section class="panel" aria-labelledby="message-history-title">
      <h2 id="message-history-title">Sent</h2>
      {loading && data === undefined ? <Loading /> : null}
      <ErrorNote error={error} what="Messages" />
      {data === undefined ? null : data.items.length === 0 ? (
        <p class="note">No message sent with this template yet.</p>
      ) : (
        <TableScroll label="Sent messages">
          <table data-testid="message-history">
            <thead>
              <tr>
                <th scope="col">Sent</th>
                <th scope="col">Message</th>
                <th scope="col">Passes</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((message) => (
                <tr key={message.id}>
                  <td>
                    <When at={message.created} />
                  </td>
                  <td class="wrap">
                    <strong>{message.header}</strong> {message.body}
                  </td>
                  <td>{message.passes ?? '—'}</td>
                  <td>{message.job?.state ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

/** Write a message to a template's holders, see it on both wallets, send it, and the history. */
export function MessagesPage(): JSX.Element {
  const templates = useLoad(allTemplates, []);
  const [templateId, setTemplateId] = useState('');
  const [header, setHeader] = useState('');
  const [body, setBody] = useState('');
  const [filterName, setFilterName] = useState('');
  const [filterValue, setFilterValue] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [status, setStatus] = useState('');
  const [round, setRound] = useState(0);
  const list = templates.data ?? [];
  const template = list.find((item) => String(item.id) === templateId) ?? list[0];
  const send = (event: SubmitEvent): void => {
    event.preventDefault();
    if (template === undefined) return;
    setError(undefined);
    setStatus('');
    const filter = filterName !== '' && filterValue !== '' ? { filter: { [`values.${filterName}`]: filterValue } } : {};
    getJson<Message>(`/v1/templates/${template.id}/messages`, { method: 'POST', json: { header, body, ...filter } }).then((sent) => {
      setStatus(`Sent${typeof sent?.passes === 'number' ? ` to ${sent.passes} pass${sent.passes === 1 ? '' : 'es'}` : ''}.`);
      setRound((n) => n + 1);
    }, setError);
  };
  return (
    <>
      <h1 tabIndex={-1}>Messages</h1>
      {templates.loading ? <Loading /> : null}
      <ErrorNote error={templates.error} />
      {template === undefined ? (
        templates.loading ? null : (
          <p class="note">Make a template first.</p>
        )
      ) : (
        <>
          <TemplatePicker templates={list} value={String(template.id)} onChange={setTemplateId} id="message-template" />
          {can('passes') ? (
            <form class="message-form" onSubmit={send} data-testid="message-form">
              <div class="field-row">
                <label for="message-header">Header</label>
                <input id="message-header" type="text" required maxLength={200} value={header} onInput={(event) => setHeader(event.currentTarget.value)} />
              </div>
              <div class="field-row">
                <label for="message-body">Message</label>
                <textarea id="message-body" required rows={3} maxLength={1000} value={body} onInput={(event) => setBody(event.currentTarget.value)} />
              </div>
              <fieldset>
                <legend>Only the passes where (optional)</legend>
                <div class="field-row">
                  <label for="message-filter-name">Placeholder</label>
                  <select id="message-filter-name" value={filterName} onChange={(event) => setFilterName(event.currentTarget.value)}>
                    <option value="">(every pass)</option>
                    {(template.placeholder ?? []).map((name) => (
                      <option key={name} value={name}>
                        {name}
                      </option>
                    ))}
                  </select>
                </div>
                <div class="field-row">
                  <label for="message-filter-value">is exactly</label>
                  <input id="message-filter-value" type="text" value={filterValue} onInput={(event) => setFilterValue(event.currentTarget.value)} />
                </div>
              </fieldset>
              <h2>Preview</h2>
              <MessagePreview header={header} body={body} organization={template.name} />
              <p class="actions">
                <button type="submit" class="primary" data-testid="message-send">
                  Send
                </button>
                <span class="note" role="status" data-testid="message-status">
                  {status}
                </span>
              </p>
              <ErrorNote error={error} what="Messages" />
            </form>
          ) : null}
          <History templateId={template.id} round={round} />
        </>
      )}
    </>
  );
}
