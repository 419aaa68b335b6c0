import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useErrorBoundary, useState } from 'preact/hooks';
import { errorMessage } from './format';

/** An API error as the API worded it. */
export function ErrorBox({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  return (
    <p class="error" role="alert">
      {errorMessage(error)}
    </p>
  );
}

/** Loads once (and on `reload`), keeping the last value, the error and whether it is loading. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [state, setState] = useState<{ value?: T; error?: unknown; loading: boolean }>({ loading: true });
  const reload = useCallback(() => {
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (value) => setState({ value, loading: false }),
      (error: unknown) => setState({ error, loading: false }),
    );
  }, deps);
  useEffect(reload, [reload]);
  return { ...state, reload };
}

export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

/** A box that scrolls when its content is long (tool results, observations). */
export function Pre({ children, label }: { children: ComponentChildren; label?: string }) {
  return (
    <pre class="scroll" tabIndex={0} aria-label={label}>
      {children}
    </pre>
  );
}

/** A view that throws while rendering shows the error instead of a blank page. */
export function Guard({ children }: { children: ComponentChildren }) {
  const [error, reset] = useErrorBoundary();
  if (!error) return <>{children}</>;
  return (
    <section aria-label="Error">
      <ErrorBox error={error} />
      <button type="button" onClick={reset}>
        Try again
      </button>
    </section>
  );
}
