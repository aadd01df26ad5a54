/** The Emscripten ES module (built into wasm-core/dist, never committed). */
declare module '@wasm/fawnlab_web.mjs' {
  const createFawnlabCore: (options?: Record<string, unknown>) => Promise<unknown>;
  export default createFawnlabCore;
}
