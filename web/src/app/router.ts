/**
 * A minimal history router: the path and query string as React state, and navigate() to
 * change them (push for a new place, replace for edits of the current one).
 */
import { useSyncExternalStore } from 'react';

const listeners = new Set<() => void>();

function notify(): void {
  for (const l of listeners) l();
}

if (typeof window !== 'undefined') window.addEventListener('popstate', notify);

export function navigate(url: string, opts: { replace?: boolean } = {}): void {
  if (opts.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  notify();
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** The current location as "path?query". */
export function useLocation(): { path: string; search: string } {
  const href = useSyncExternalStore(subscribe, () => window.location.pathname + window.location.search);
  const q = href.indexOf('?');
  return q < 0 ? { path: href, search: '' } : { path: href.slice(0, q), search: href.slice(q) };
}
