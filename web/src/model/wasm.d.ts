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
   * The generic live session (registry/sessions.h): any session of describeSessions() by id,
   * from a config JSON text and a decimal seed; ok()/error() say whether it was accepted. Times
   * are virtual nanoseconds; delete() frees the C++ object.
   */
  export interface EmbindLabSession {
    ok(): boolean;
    error(): string;
    /** Advances virtual time by dtNs, running at most maxEvents events; returns events run. */
    advance(dtNs: number, maxEvents: number): number;
    /** Runs the next event; false when there is none. */
    step(): boolean;
    /** Applies a partial config of live fields (JSON); '' on success, else the error message. */
    reconfigure(patchJson: string): string;
    /** The session's state as JSON text; `recent` lists drain at each call. */
    snapshot(): string;
    /** One operation (a JSON object with `op`); its result as JSON text. */
    apply(opJson: string): { ok: true; json: string } | EmbindError;
    /** Changes whenever the session's column views may have changed. */
    version(): number;
    /** What the page slows down for runs, as a phase (0: nothing). */
    busy(): number;
    /** A column view: typed arrays (JS-owned copies) and numbers, or why it cannot be made. */
    columns(view: string, argsJson: string): ({ ok: true } & Record<string, unknown>) | EmbindError;
    delete(): void;
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
    /** Every live session's schema as JSON text (the build writes it to dist/sessions.json). */
    describeSessions?(): string;
    /** The generic live session (absent from cores built before it). */
    LabSession?: new (id: string, configJson: string, seed: string) => EmbindLabSession;
  }

  const createFawnlabCore: (options?: Record<string, unknown>) => Promise<FawnlabModule>;
  export default createFawnlabCore;
}
