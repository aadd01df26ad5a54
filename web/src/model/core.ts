/**
 * The one module that loads the Emscripten glue (wasm-core/dist/fawnlab_web.mjs). Everything
 * else talks to the core through the typed Core API here, in the main thread or a worker; live
 * sessions are opened here (openLabSession) and driven by model/session.
 * Failures are values ({ok: false, code, message}); nothing throws for bad input. Importing
 * this module is cheap: the glue and the .wasm load only when loadCore() is called.
 */
import type { FawnlabModule } from '@wasm/fawnlab_web.mjs';
import wasmUrl from '@wasm/fawnlab_web.wasm?url';
import type { RawLabSession } from './session/host';
import type { CoreError, ExperimentInfo, RunRecord } from './types';

type RawCore = FawnlabModule;

export interface LoadOptions {
  /** The .wasm bytes, when there is no fetch (Node tests). */
  wasmBinary?: Uint8Array;
}

export class Core {
  constructor(private readonly raw: RawCore) {}

  version(): string {
    return this.raw.version();
  }

  experiments(): ExperimentInfo[] {
    return JSON.parse(this.raw.listExperiments()) as ExperimentInfo[];
  }

  /** Checks parameters against the experiment's schema; on success the full resolved set. */
  resolveParams(id: string, params: Record<string, unknown>): { ok: true; params: Record<string, unknown> } | CoreError {
    const r = this.raw.resolveParams(id, JSON.stringify(params));
    return r.ok ? { ok: true, params: JSON.parse(r.json) as Record<string, unknown> } : r;
  }

  /**
   * Resolves parameters given as text (from a form or a URL), parsed by type exactly as the
   * CLI parses `--param name=value`; on success the full resolved set.
   */
  resolveParamStrings(id: string, pairs: Array<[string, string]>): { ok: true; params: Record<string, unknown> } | CoreError {
    const r = this.raw.resolveParamStrings(id, JSON.stringify(pairs));
    return r.ok ? { ok: true, params: JSON.parse(r.json) as Record<string, unknown> } : r;
  }

  /** Runs an experiment synchronously. `seed` is a decimal integer string. */
  run(
    id: string,
    params: Record<string, unknown>,
    seed: string,
    onProgress?: (fraction: number) => void,
  ): RunRecord | CoreError {
    const cb = onProgress
      ? (f: number) => {
          onProgress(f);
          return true;
        }
      : null;
    const r = this.raw.runExperiment(id, JSON.stringify(params), seed, cb);
    if (!r.ok) return r;
    return { result: JSON.parse(r.json) as RunRecord['result'], json: r.json, csv: r.csv };
  }

  /** Opens the generic live session `id` (model/session drives it), or says why it cannot. */
  openLabSession(id: string, configJson: string, seed: string): RawLabSession | CoreError {
    const cls = this.raw.LabSession;
    if (!cls) return { ok: false, code: 'unavailable', message: 'this build of the core has no LabSession; rebuild wasm-core' };
    const raw = new cls(id, configJson, seed);
    if (!raw.ok()) {
      const message = raw.error();
      raw.delete();
      return { ok: false, code: 'invalid_argument', message };
    }
    return raw;
  }
}

/**
 * Fetches and instantiates the core. The Emscripten glue is imported here, on first use, so it
 * and the .wasm are separate downloads that pages without the core (home, Cluster) never make.
 */
export async function loadCore(options: LoadOptions = {}): Promise<Core> {
  const { default: createFawnlabCore } = await import('@wasm/fawnlab_web.mjs');
  const raw = await createFawnlabCore({
    ...(options.wasmBinary ? { wasmBinary: options.wasmBinary } : { locateFile: () => wasmUrl }),
  });
  return new Core(raw);
}

export function isCoreError(x: unknown): x is CoreError {
  return typeof x === 'object' && x !== null && (x as { ok?: unknown }).ok === false;
}
