/**
 * The C++ core, compiled for Node (wasm-core/dist/fawnlab_node.cjs, a single file with the
 * WebAssembly embedded), behind a typed API. Failures come back as values ({ok: false, code,
 * message}); nothing here throws for bad user input.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { CoreError, ExperimentInfo } from './wire/experiments.js';

export type { CoreError, ExperimentInfo, ParamSpec } from './wire/experiments.js';
export type Resolved = { ok: true; json: string } | CoreError;
export type RunOutput = { ok: true; json: string; csv: string } | CoreError;

interface RawCore {
  version(): string;
  listExperiments(): string;
  resolveParams(id: string, paramsJson: string): Resolved;
  resolveParamStrings(id: string, pairsJson: string): Resolved;
  runExperiment(id: string, paramsJson: string, seed: string, onProgress: ((f: number) => boolean) | null): RunOutput;
  runBenchmarks(scale: number): string;
  runStoresBenchmarks?(scale: number): string;
}

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const NODE_CORE = resolve(ROOT, 'wasm-core/dist/fawnlab_node.cjs');

export class Core {
  private constructor(private readonly raw: RawCore) {}

  /** Loads the Node build. Throws only if the build is missing (a setup problem, not input). */
  static async load(path = NODE_CORE): Promise<Core> {
    if (!existsSync(path)) {
      throw new Error(`the WebAssembly core is not built (${path} is missing); run 'npm run build'`);
    }
    const require = createRequire(import.meta.url);
    const factory = require(path) as () => Promise<RawCore>;
    return new Core(await factory());
  }

  version(): string {
    return this.raw.version();
  }

  experiments(): ExperimentInfo[] {
    return JSON.parse(this.raw.listExperiments()) as ExperimentInfo[];
  }

  listJson(): string {
    return this.raw.listExperiments();
  }

  resolveParams(id: string, params: Record<string, unknown>): Resolved {
    return this.raw.resolveParams(id, JSON.stringify(params));
  }

  resolveParamStrings(id: string, pairs: Array<[string, string]>): Resolved {
    return this.raw.resolveParamStrings(id, JSON.stringify(pairs));
  }

  run(id: string, paramsJson: string, seed: string, onProgress?: (fraction: number) => void): RunOutput {
    const cb = onProgress
      ? (f: number) => {
          onProgress(f);
          return true;
        }
      : null;
    return this.raw.runExperiment(id, paramsJson, seed, cb);
  }

  benchmarks(scale: number): string {
    return this.raw.runBenchmarks(scale);
  }

  /** The Stores lab's emulation speeds (bench/stores_bench.h StoresSimSpeed); '' in an older build. */
  storesBenchmarks(scale: number): string {
    return this.raw.runStoresBenchmarks ? this.raw.runStoresBenchmarks(scale) : '';
  }
}
