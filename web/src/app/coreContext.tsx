/**
 * Loads the WASM core once for the main thread (schemas, parameter checks, live sessions) and
 * hands it to the pages; experiment runs go to workers through ExperimentRunner instead.
 * The load starts when the first component calls useCore(), or earlier through preloadCore()
 * (App.tsx calls it as a lab page's chunk starts loading, so the two download side by side);
 * pages that never need the core (home, Cluster) never fetch its glue or its .wasm.
 */
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { loadCore, type Core } from '../model/core';

type CoreState = { core: Core | null; error: string | null };

let loading: Promise<Core> | null = null;

/** Starts loading the core, once per page load; the same promise for every caller. */
export function preloadCore(): Promise<Core> {
  loading ??= loadCore();
  return loading;
}

const CoreContext = createContext<{ state: CoreState; request: () => void }>({
  state: { core: null, error: null },
  request: () => {},
});

export function CoreProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<CoreState>({ core: null, error: null });
  const started = useRef(false);
  const request = useCallback(() => {
    if (started.current) return;
    started.current = true;
    preloadCore().then(
      (core) => setState({ core, error: null }),
      (err: unknown) => setState({ core: null, error: `The simulation core failed to load: ${String(err)}` }),
    );
  }, []);
  return <CoreContext.Provider value={{ state, request }}>{children}</CoreContext.Provider>;
}

/** The core (null while it loads, with `error` if it failed); the first call starts the load. */
export function useCore(): CoreState {
  const { state, request } = useContext(CoreContext);
  useEffect(request, [request]);
  return state;
}
