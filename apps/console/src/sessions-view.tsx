import { useState } from 'preact/hooks';
import type { ViewProps } from './view-props';
import { formatTime, formatUsd } from './format';
import { ErrorBox, Section, useLoad } from './ui';

export function SessionsView({ client, arg }: ViewProps) {
  return arg ? <SessionDetail client={client} id={arg} /> : <SessionList client={client} />;
}

function SessionList({ client }: Pick<ViewProps, 'client'>) {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [cursor, setCursor] = useState<string | undefined>();
  const page = useLoad(
    () => client.sessions.list({ limit: 50, ...(q ? { q } : {}), cursor }),
    [client, q, cursor],
  );
  return (
    <Section title="Sessions">
      <form
        class="row"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setCursor(undefined);
          setQ(text.trim());
        }}
      >
        <label for="session-q">Search</label>
        <input id="session-q" type="search" value={text} onInput={(e) => setText(e.currentTarget.value)} />
        <button type="submit">Search</button>
      </form>
      <ErrorBox error={page.error} />
      <table class="cards" aria-label="Sessions, newest first">
        <thead>
          <tr>
            <th scope="col">Session</th>
            <th scope="col">Title</th>
            <th scope="col">Agent</th>
            <th scope="col">Last active</th>
          </tr>
        </thead>
        <tbody>
          {page.value?.items.map((s) => (
            <tr key={s.id}>
              <td data-label="Session">
                <a href={`#/sessions/${encodeURIComponent(s.id)}`}>{s.id}</a>
              </td>
              <td data-label="Title">{s.title ?? '—'}</td>
              <td data-label="Agent">{s.agent}</td>
              <td data-label="Last active">{formatTime(s.updated_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {page.value && page.value.items.length === 0 && (
        <p class="muted">No sessions{q ? ` matching “${q}”` : ''}.</p>
      )}
      {page.value?.next_cursor && (
        <button type="button" onClick={() => setCursor(page.value!.next_cursor!)}>
          Older sessions
        </button>
      )}
    </Section>
  );
}

function SessionDetail({ client, id }: Pick<ViewProps, 'client'> & { id: string }) {
  const session = useLoad(() => client.sessions.get(id), [client, id]);
  const runs = useLoad(() => client.runs.list({ session_id: id, limit: 100 }), [client, id]);
  const s = session.value;
  return (
    <Section title={`Session ${id}`}>
      <p>
        <a href="#/sessions">All sessions</a>
      </p>
      <ErrorBox error={session.error ?? runs.error} />
      {s && (
        <>
          <p>
            {s.title ?? 'Untitled'} · agent {s.agent} · started {formatTime(s.created_at)}
            {s.cost_so_far !== null && ` · ${formatUsd(s.cost_so_far)} so far`}
          </p>
          <div class="row">
            <a class="button" href={`#/chat/${encodeURIComponent(s.id)}`}>
              Continue in chat
            </a>
            <DeleteSession client={client} id={s.id} />
          </div>
          {s.summary && <p class="muted">Summary: {s.summary}</p>}
          <h3>Messages</h3>
          <ol class="turns" aria-label="Messages">
            {s.messages.map((m) => (
              <li key={m.seq} class="turn">
                <strong>{m.role === 'user' ? 'User' : 'Assistant'}</strong>{' '}
                <span class="muted">{formatTime(m.created_at)}</span>
                <div class="answer">{m.content}</div>
              </li>
            ))}
          </ol>
        </>
      )}
      <h3>Runs</h3>
      <ul aria-label="Runs of this session">
        {runs.value?.items.map((r) => (
          <li key={r.id}>
            <a href={`#/runs/${encodeURIComponent(r.id)}`}>{r.id}</a> — {r.status}
            {r.finish_reason ? ` · ${r.finish_reason}` : ''} — {formatTime(r.created_at)}
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** Deleting asks once more, in the page (no browser dialog): the session's messages and runs go with it. */
function DeleteSession({ client, id }: Pick<ViewProps, 'client'> & { id: string }) {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<unknown>();
  async function remove() {
    try {
      await client.sessions.delete(id);
      location.hash = '#/sessions';
    } catch (err) {
      setError(err);
    }
  }
  if (!asking)
    return (
      <button type="button" class="secondary" onClick={() => setAsking(true)}>
        Delete session
      </button>
    );
  return (
    <div class="confirm" role="group" aria-label="Confirm deleting the session">
      <span>Delete this session, its messages and its runs? </span>
      <button type="button" class="danger" onClick={() => void remove()}>
        Delete
      </button>{' '}
      <button type="button" class="secondary" onClick={() => setAsking(false)} autoFocus>
        Keep it
      </button>
      <ErrorBox error={error} />
    </div>
  );
}
