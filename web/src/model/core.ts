/**
 * The one module that loads the Emscripten glue (wasm-core/dist/fawnlab_web.mjs). Everything
 * else talks to the core through the typed Core API here, in the main thread or the worker.
 * Failures are values ({ok: false, code, message}); nothing throws for bad input.
 */
import createFawnlabCore from '@wasm/fawnlab_web.mjs';
import wasmUrl from '@wasm/fawnlab_web.wasm?url';
import type { CoreError, ExperimentInfo, LiveConfig, QueueSnapshot, RunRecord } from './types';

interface RawSession {
  ok(): boolean;
  error(): string;
  advance(dtNs: number, maxEvents: number): number;
  step(): boolean;
  reconfigure(patchJson: string): string;
  snapshot(): string;
  delete(): void;
}

interface RawCore {
  version(): string;
  listExperiments(): string;
  resolveParams(id: string, paramsJson: string): { ok: true; json: string } | CoreError;
  resolveParamStrings(id: string, pairsJson: string): { ok: true; json: string } | CoreError;
  runExperiment(
    id: string,
    paramsJson: string,
    seed: string,
    onProgress: ((f: number) => boolean) | null,
  ): { ok: true; json: string; csv: string } | CoreError;
  QueueSession: new (configJson: string, seed: string) => RawSession;
}

export interface LoadOptions {
  /** The .wasm bytes, when there is no fetch (Node tests). */
  wasmBinary?: Uint8Array;
}

/** A live queue session in the core; call dispose() when done. */
export class LiveQueueSession {
  constructor(private raw: RawSession | null) {}

  advance(dtNs: number, maxEvents: number): number {
    return this.raw ? this.raw.advance(dtNs, maxEvents) : 0;
  }
  step(): boolean {
    return this.raw ? this.raw.step() : false;
  }
  /** Returns '' on success, else the error message. */
  reconfigure(patch: LiveConfig): string {
    return this.raw ? this.raw.reconfigure(JSON.stringify(patch)) : 'session closed';
  }
  snapshot(): QueueSnapshot {
    if (!this.raw) throw new Error('session closed');
    return JSON.parse(this.raw.snapshot()) as QueueSnapshot;
  }
  dispose(): void {
    this.raw?.delete();
    this.raw = null;
  }
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

  /** Starts a live queue session, or returns the reason it cannot. */
  createQueueSession(config: LiveConfig, seed: string): LiveQueueSession | CoreError {
    const raw = new this.raw.QueueSession(JSON.stringify(config), seed);
    if (!raw.ok()) {
      const message = raw.error();
      raw.delete();
      return { ok: false, code: 'invalid_argument', message };
    }
    return new LiveQueueSession(raw);
  }
}

export async function loadCore(options: LoadOptions = {}): Promise<Core> {
  const raw = (await createFawnlabCore({
    ...(options.wasmBinary ? { wasmBinary: options.wasmBinary } : { locateFile: () => wasmUrl }),
  })) as RawCore;
  return new Core(raw);
}

export function isCoreError(x: unknown): x is CoreError {
  return typeof x === 'object' && x !== null && (x as { ok?: unknown }).ok === false;
}
