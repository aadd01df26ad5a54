/**
 * The Emscripten ES module (built into wasm-core/dist, never committed): the shapes of what
 * wasm-core/bindings/bindings.cc exports. Only model/core.ts imports it.
 */
declare module '@wasm/fawnlab_web.mjs' {
  /** A failure as the bindings return it. */
  export interface EmbindError {
    ok: false;
    code: string;
    message: string;
  }

  /**
   * An embind live session (QueueSession, FlashSession, DiskSession): built from a config
   * JSON text and a decimal seed; ok()/error() say whether the config was accepted. Times are
   * virtual nanoseconds. delete() frees the C++ object.
   */
  export interface EmbindSession {
    ok(): boolean;
    error(): string;
    /** Advances virtual time by dtNs, running at most maxEvents events; returns events run. */
    advance(dtNs: number, maxEvents: number): number;
    /** Runs the next event; false when there is none. */
    step(): boolean;
    /** Applies a partial config (JSON); '' on success, else the error message. */
    reconfigure(patchJson: string): string;
    /** The session's state as JSON text; `recent` lists drain at each call. */
    snapshot(): string;
    delete(): void;
  }

  export type EmbindSessionClass<R extends EmbindSession = EmbindSession> = new (configJson: string, seed: string) => R;

  /**
   * A live session that also takes operations (one JSON object with `op`; the result as JSON
   * text) and counts its changes in version().
   */
  export interface EmbindOpSession extends EmbindSession {
    apply(opJson: string): { ok: true; json: string } | EmbindError;
    version(): number;
    /** What the page slows down for runs, as a phase: 0 nothing (FAWN-KV 1: a membership change; FAWN-DS 1: maintenance scanning, 2: its lock). */
    busy(): number;
  }

  /** The FAWN-DS lab's session: a live session with operations and column views. */
  export interface EmbindFawndsSession extends EmbindOpSession {
    log(store: number):
      | { ok: true; offsets: Uint32Array; flags: Uint8Array; keys: Uint32Array; logEnd: number; counts: number[] }
      | EmbindError;
    index(store: number, first: number, count: number, group: number):
      | { ok: true; indexBits: number; first: number; group: number; valid: Uint16Array; fragments: Uint16Array; offsets: Uint32Array }
      | EmbindError;
  }

  /**
   * The FAWN-KV lab's cluster (fawnkv/lab/session.h): operations, and the ring's VIDs as
   * columns in ring order (typed-array copies); version() changes with the ring.
   */
  export interface EmbindFawnkvSession extends EmbindOpSession {
    vids(): { ok: true; version: number; node: Uint32Array; index: Uint16Array; pos: Float64Array; chainLength: number; chains: Uint32Array } | EmbindError;
  }

  export interface FawnlabModule {
    version(): string;
    listExperiments(): string;
    resolveParams(id: string, paramsJson: string): { ok: true; json: string } | EmbindError;
    resolveParamStrings(id: string, pairsJson: string): { ok: true; json: string } | EmbindError;
    runExperiment(
      id: string,
      paramsJson: string,
      seed: string,
      onProgress: ((f: number) => boolean) | null,
    ): { ok: true; json: string; csv: string } | EmbindError;
    /** The Queues lab's live queue (queues/lab/session.h). */
    QueueSession: EmbindSessionClass;
    /** The Devices lab's live flash device behind its FTL (absent from cores built before it). */
    FlashSession?: EmbindSessionClass;
    /** The Devices lab's live disk (absent from cores built before it). */
    DiskSession?: EmbindSessionClass;
    /** The FAWN-DS lab's node (absent from cores built before it). */
    FawndsSession?: EmbindSessionClass<EmbindFawndsSession>;
    /** The FAWN-KV lab's cluster (absent from cores built before it). */
    FawnkvSession?: EmbindSessionClass<EmbindFawnkvSession>;
  }

  const createFawnlabCore: (options?: Record<string, unknown>) => Promise<FawnlabModule>;
  export default createFawnlabCore;
}
