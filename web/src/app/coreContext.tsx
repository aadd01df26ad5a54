/**
 * Loads the WASM core once for the main thread (schemas, parameter checks, live sessions) and
 * hands it to the pages; experiment runs go to workers through ExperimentRunner instead.
 */
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { loadCore, type Core } from '../model/core';

type CoreState = { core: Core | null; error: string | null };

const CoreContext = createContext<CoreState>({ core: null, error: null });

export function CoreProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<CoreState>({ core: null, error: null });
  useEffect(() => {
    let alive = true;
    loadCore().then(
      (core) => alive && setState({ core, error: null }),
      (err: unknown) => alive && setState({ core: null, error: `The simulation core failed to load: ${String(err)}` }),
    );
    return () => {
      alive = false;
    };
  }, []);
  return <CoreContext.Provider value={state}>{children}</CoreContext.Provider>;
}

export function useCore(): CoreState {
  return useContext(CoreContext);
}
