import type { Scope } from '@app/client';

export type ViewId =
  'chat' | 'sessions' | 'runs' | 'agents' | 'usage' | 'functions' | 'tasks' | 'keys' | 'health';

/** The console's views in navigation order, each with the scope its reads need (none: public). */
export const VIEWS: { id: ViewId; label: string; scope?: Scope }[] = [
  { id: 'chat', label: 'Chat', scope: 'chat' },
  { id: 'sessions', label: 'Sessions', scope: 'chat' },
  { id: 'runs', label: 'Runs', scope: 'chat' },
  { id: 'agents', label: 'Agents', scope: 'chat' },
  { id: 'usage', label: 'Usage', scope: 'chat' },
  { id: 'functions', label: 'Functions', scope: 'functions:read' },
  { id: 'tasks', label: 'Tasks', scope: 'tasks:read' },
  { id: 'keys', label: 'Keys', scope: 'admin' },
  { id: 'health', label: 'Health' },
];

/** The platform's rule (libs/contracts `hasScope`): `admin` includes every scope. */
export function may(scopes: readonly string[], needed: Scope | undefined): boolean {
  return needed === undefined || scopes.includes('admin') || scopes.includes(needed);
}

export function visibleViews(scopes: readonly string[]) {
  return VIEWS.filter((view) => may(scopes, view.scope));
}

/** `#/runs/r_1` → `{view: 'runs', arg: 'r_1'}`; an unknown or forbidden view falls back to the first allowed. */
export function parseRoute(hash: string, scopes: readonly string[]): { view: ViewId; arg?: string } {
  const [name, ...rest] = hash.replace(/^#\/?/, '').split('/');
  const allowed = visibleViews(scopes);
  const view = allowed.find((v) => v.id === name) ?? allowed[0];
  const arg = rest.length ? decodeURIComponent(rest.join('/')) : undefined;
  return { view: view.id, ...(view.id === name && arg ? { arg } : {}) };
}

const KEY = 'agentchassis.apiKey';

/** The API key lives in this tab's sessionStorage only: never localStorage, never a cookie. */
export const keyStore = {
  get: (storage: Storage = sessionStorage): string | null => storage.getItem(KEY),
  set: (key: string, storage: Storage = sessionStorage): void => storage.setItem(KEY, key),
  clear: (storage: Storage = sessionStorage): void => storage.removeItem(KEY),
};
