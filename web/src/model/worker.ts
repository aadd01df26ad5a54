/**
 * The experiment worker: runs experiments on the WASM core off the main thread and reports
 * progress. Cancellation is by termination (the runner replaces the worker), so a run never
 * needs to poll for it.
 *
 * Protocol: in  {type: 'run', reqId, id, params, seed}
 *           out {type: 'progress', reqId, fraction} ... then {type: 'done', reqId, record}
 *               or {type: 'error', reqId, error: {ok: false, code, message}}
 */
import { loadCore } from './core';
import type { CoreError, RunRecord } from './types';

export type WorkerRequest = { type: 'run'; reqId: number; id: string; params: Record<string, unknown>; seed: string };
export type WorkerReply =
  | { type: 'progress'; reqId: number; fraction: number }
  | { type: 'done'; reqId: number; record: RunRecord }
  | { type: 'error'; reqId: number; error: CoreError };

const corePromise = loadCore();
const post = (m: WorkerReply) => (self as unknown as Worker).postMessage(m);

self.onmessage = async (e: MessageEvent<WorkerRequest>) => {
  const req = e.data;
  let core;
  try {
    core = await corePromise;
  } catch (err) {
    post({ type: 'error', reqId: req.reqId, error: { ok: false, code: 'internal', message: `cannot load the core: ${String(err)}` } });
    return;
  }
  const r = core.run(req.id, req.params, req.seed, (fraction) => post({ type: 'progress', reqId: req.reqId, fraction }));
  if ('result' in r) post({ type: 'done', reqId: req.reqId, record: r });
  else post({ type: 'error', reqId: req.reqId, error: r });
};
