import { AgentChassisClient, type WhoAmIView } from '@app/client';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { keyStore, may, parseRoute, visibleViews } from './access';
import { AgentsView } from './agents-view';
import { ChatView } from './chat-view';
import { FunctionsView } from './functions-view';
import { HealthView } from './health-view';
import { KeysView } from './keys-view';
import { RunsView } from './runs-view';
import { SessionsView } from './sessions-view';
import { TasksView } from './tasks-view';
import { UsageView } from './usage-view';
import { ErrorBox, Guard } from './ui';

/** The console talks to the gateway that served it, through the platform's own client. */
export const clientFor = (apiKey: string) => new AgentChassisClient({ baseUrl: location.origin, apiKey });

import type { ViewProps } from './view-props';

export function App() {
  const [me, setMe] = useState<WhoAmIView | undefined>();
  const [apiKey, setApiKey] = useState<string | null>(() => keyStore.get());
  const [error, setError] = useState<unknown>();
  const [hash, setHash] = useState(location.hash);
  const client = useMemo(() => (apiKey ? clientFor(apiKey) : undefined), [apiKey]);

  useEffect(() => {
    const onHash = () => setHash(location.hash);
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    if (!client) return;
    client.me().then(setMe, (err: unknown) => {
      keyStore.clear();
      setApiKey(null);
      setError(err);
    });
  }, [client]);

  const signIn = (key: string) => {
    setError(undefined);
    keyStore.set(key);
    setApiKey(key);
  };
  const signOut = () => {
    keyStore.clear();
    setApiKey(null);
    setMe(undefined);
    location.hash = '';
  };

  if (!client || !me) return <SignIn onSubmit={signIn} error={error} busy={!!client} />;
  const route = parseRoute(hash, me.scopes);
  const props: ViewProps = { client, scopes: me.scopes, arg: route.arg };
  return (
    <div class="layout">
      <header>
        <h1>AgentChassis</h1>
        <nav aria-label="Views">
          {visibleViews(me.scopes).map((view) => (
            <a href={`#/${view.id}`} aria-current={route.view === view.id ? 'page' : undefined} key={view.id}>
              {view.label}
            </a>
          ))}
        </nav>
        <p class="who">
          <span>{me.principal || 'anonymous'}</span>
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </p>
      </header>
      <main>
        <Guard key={`${route.view}/${route.arg ?? ''}`}>
          {route.view === 'chat' && <ChatView {...props} />}
          {route.view === 'sessions' && <SessionsView {...props} />}
          {route.view === 'runs' && <RunsView {...props} />}
          {route.view === 'agents' && <AgentsView {...props} />}
          {route.view === 'usage' && <UsageView {...props} />}
          {route.view === 'functions' && <FunctionsView {...props} />}
          {route.view === 'tasks' && <TasksView {...props} />}
          {route.view === 'keys' && may(me.scopes, 'admin') && <KeysView {...props} />}
          {route.view === 'health' && <HealthView {...props} />}
        </Guard>
      </main>
    </div>
  );
}

function SignIn({
  onSubmit,
  error,
  busy,
}: {
  onSubmit: (key: string) => void;
  error: unknown;
  busy: boolean;
}) {
  const [key, setKey] = useState('');
  return (
    <main class="signin">
      <h1>AgentChassis console</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (key.trim()) onSubmit(key.trim());
        }}
      >
        <label for="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autoComplete="off"
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
          required
        />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <p class="hint">The key is kept in this tab only (sessionStorage) and forgotten on sign-out.</p>
        <ErrorBox error={error} />
      </form>
    </main>
  );
}
