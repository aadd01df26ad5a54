/**
 * The one module that loads the Emscripten glue (wasm-core/dist/fawnlab_web.mjs). Everything
 * else talks to the core through the typed Core API here, in the main thread or the worker.
 * Failures are values ({ok: false, code, message}); nothing throws for bad input. Importing
 * this module is cheap: the glue and the .wasm load only when loadCore() is called.
 */
import type {
  EmbindFawndsSession,
  EmbindFawnkvSession,
  EmbindOpSession,
  EmbindSession,
  EmbindSessionClass,
  FawnlabModule,
} from '@wasm/fawnlab_web.mjs';
import wasmUrl from '@wasm/fawnlab_web.wasm?url';
import type {
  CoreError,
  DiskConfig,
  DiskSnapshot,
  ExperimentInfo,
  FlashConfig,
  FlashSnapshot,
  LiveConfig,
  QueueSnapshot,
  RunRecord,
} from './types';
import type { FawndsConfig, FawndsIndexCells, FawndsLog, FawndsOp, FawndsOpResult, FawndsSnapshot } from './fawndsTypes';
import type { FawnkvConfig, FawnkvOp, FawnkvOpResult, FawnkvSnapshot, FawnkvVids } from './fawnkvTypes';

type RawSession = EmbindSession;
type RawCore = FawnlabModule;

export interface LoadOptions {
  /** The .wasm bytes, when there is no fetch (Node tests). */
  wasmBinary?: Uint8Array;
}

/**
 * A live session in the core (config type C, snapshot type S); call dispose() when done.
 * After dispose() advance/step do nothing and snapshot() throws.
 */
class LiveSession<C, S, R extends RawSession = RawSession> {
  constructor(protected raw: R | null) {}

  /** Advances virtual time by dtNs (at most maxEvents events); returns the events run. */
  advance(dtNs: number, maxEvents: number): number {
    return this.raw ? this.raw.advance(dtNs, maxEvents) : 0;
  }
  /** Runs the next event; false when there is none. */
  step(): boolean {
    return this.raw ? this.raw.step() : false;
  }
  /** Returns '' on success, else the error message. */
  reconfigure(patch: C): string {
    return this.raw ? this.raw.reconfigure(JSON.stringify(patch)) : 'session closed';
  }
  snapshot(): S {
    if (!this.raw) throw new Error('session closed');
    return JSON.parse(this.raw.snapshot()) as S;
  }
  dispose(): void {
    this.raw?.delete();
    this.raw = null;
  }
}

/** A live queue session (queues/lab/session.h). */
export class LiveQueueSession extends LiveSession<LiveConfig, QueueSnapshot> {}

/** A live flash device behind its FTL (the Devices lab); its snapshot's `recent` drains per call. */
export class LiveFlashSession extends LiveSession<FlashConfig, FlashSnapshot> {}

/** A live disk (the Devices lab): head, platter, queue and power state. */
export class LiveDiskSession extends LiveSession<DiskConfig, DiskSnapshot> {}

const CLOSED: CoreError = { ok: false, code: 'unavailable', message: 'session closed' };

/** A live session that takes operations (op type O, result type P) and counts its changes. */
class LiveOpSession<C, S, O, P, R extends EmbindOpSession> extends LiveSession<C, S, R> {
  /** Applies one operation (one JSON object with `op`); its result, or why it was refused. */
  apply(op: O): { ok: true; result: P } | CoreError {
    if (!this.raw) return CLOSED;
    const r = this.raw.apply(JSON.stringify(op));
    return r.ok ? { ok: true, result: JSON.parse(r.json) as P } : r;
  }
  /** Changes whenever the session's column views may have changed. */
  version(): number {
    return this.raw ? this.raw.version() : 0;
  }
  /**
   * Whether an event the page shows in slow motion is running (FAWN-KV: a join, a leave or a
   * failed node's repair; FAWN-DS: a compaction, split or merge, 2 while its lock holds), as a
   * phase number (0: nothing). Cheaper than a snapshot.
   */
  busy(): number {
    return this.raw ? this.raw.busy() : 0;
  }
}

/**
 * The FAWN-DS lab's node (fawnds/lab/session.h): operations (put/get/delete and durable points
 * run until they complete), and the log and index as columns (typed arrays owned by
 * JavaScript) rather than JSON.
 */
export class LiveFawndsSession extends LiveOpSession<FawndsConfig, FawndsSnapshot, FawndsOp, FawndsOpResult, EmbindFawndsSession> {
  /** Store `store`'s log record by record (store = the store count: the store being built). */
  log(store: number): FawndsLog | CoreError {
    if (!this.raw) return CLOSED;
    const r = this.raw.log(store);
    if (!r.ok) return r;
    return { offsets: r.offsets, flags: r.flags, keys: r.keys, logEnd: r.logEnd, counts: r.counts };
  }
  /** `count` (≤ 4096) cells of `group` buckets from bucket `first` of store `store`'s index. */
  index(store: number, first: number, count: number, group: number): FawndsIndexCells | CoreError {
    if (!this.raw) return CLOSED;
    const r = this.raw.index(store, first, count, group);
    if (!r.ok) return r;
    return { indexBits: r.indexBits, first: r.first, group: r.group, valid: r.valid, fragments: r.fragments, offsets: r.offsets };
  }
}

/**
 * The FAWN-KV lab's cluster (fawnkv/lab/session.h): operations (put/get run until they are
 * answered; membership changes start and run as time advances), and the ring's VIDs as
 * columns, fetched again when the snapshot's `ring_version` changes.
 */
export class LiveFawnkvSession extends LiveOpSession<FawnkvConfig, FawnkvSnapshot, FawnkvOp, FawnkvOpResult, EmbindFawnkvSession> {
  /** The ring's VIDs in ring order. */
  vids(): FawnkvVids | CoreError {
    if (!this.raw) return CLOSED;
    const r = this.raw.vids();
    if (!r.ok) return r;
    return { version: r.version, node: r.node, index: r.index, pos: r.pos, chainLength: r.chainLength, chains: r.chains };
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
    const raw = this.openSession(this.raw.QueueSession, 'QueueSession', config, seed);
    return isCoreError(raw) ? raw : new LiveQueueSession(raw);
  }

  /** Starts a live flash session (docs/devices.md), or returns the reason it cannot. */
  createFlashSession(config: FlashConfig, seed: string): LiveFlashSession | CoreError {
    const raw = this.openSession(this.raw.FlashSession, 'FlashSession', config, seed);
    return isCoreError(raw) ? raw : new LiveFlashSession(raw);
  }

  /** Starts a live disk session (docs/devices.md), or returns the reason it cannot. */
  createDiskSession(config: DiskConfig, seed: string): LiveDiskSession | CoreError {
    const raw = this.openSession(this.raw.DiskSession, 'DiskSession', config, seed);
    return isCoreError(raw) ? raw : new LiveDiskSession(raw);
  }

  /** Starts a FAWN-DS node session (fawnds/lab/session.h), or returns the reason it cannot. */
  createFawndsSession(config: FawndsConfig, seed: string): LiveFawndsSession | CoreError {
    const raw = this.openSession(this.raw.FawndsSession, 'FawndsSession', config, seed);
    return isCoreError(raw) ? raw : new LiveFawndsSession(raw);
  }

  /** Starts a FAWN-KV cluster session (fawnkv/lab/session.h), or returns the reason it cannot. */
  createFawnkvSession(config: FawnkvConfig, seed: string): LiveFawnkvSession | CoreError {
    const raw = this.openSession(this.raw.FawnkvSession, 'FawnkvSession', config, seed);
    return isCoreError(raw) ? raw : new LiveFawnkvSession(raw);
  }

  private openSession<R extends RawSession>(cls: EmbindSessionClass<R> | undefined, name: string, config: object, seed: string): R | CoreError {
    if (!cls) return { ok: false, code: 'unavailable', message: `this build of the core has no ${name}; rebuild wasm-core` };
    const raw = new cls(JSON.stringify(config), seed);
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
