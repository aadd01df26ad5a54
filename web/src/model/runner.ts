/**
 * ExperimentRunner: runs experiments in a Web Worker, one at a time, with progress and
 * cancel. Starting a run cancels the one in flight; cancelling terminates the worker (a new one
 * starts lazily), so a long run stops at once.
 */
import type { WorkerReply, WorkerRequest } from './worker';
import type { CoreError, RunRecord } from './types';

export interface RunHandle {
  promise: Promise<RunRecord | CoreError>;
  cancel(): void;
}

export class ExperimentRunner {
  private worker: Worker | null = null;
  private nextId = 1;
  private inflight: { reqId: number; settle: (r: RunRecord | CoreError) => void } | null = null;

  private ensureWorker(): Worker {
    if (!this.worker) {
      this.worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
      this.worker.onerror = (e) => this.finish({ ok: false, code: 'internal', message: `worker failed: ${e.message}` });
    }
    return this.worker;
  }

  private finish(r: RunRecord | CoreError, reqId?: number): void {
    if (!this.inflight || (reqId !== undefined && reqId !== this.inflight.reqId)) return;
    const settle = this.inflight.settle;
    this.inflight = null;
    settle(r);
  }

  run(id: string, params: Record<string, unknown>, seed: string, onProgress?: (fraction: number) => void): RunHandle {
    this.cancel();
    const reqId = this.nextId++;
    const worker = this.ensureWorker();
    const promise = new Promise<RunRecord | CoreError>((settle) => {
      this.inflight = { reqId, settle };
    });
    worker.onmessage = (e: MessageEvent<WorkerReply>) => {
      const m = e.data;
      if (m.reqId !== reqId) return;
      if (m.type === 'progress') onProgress?.(m.fraction);
      else if (m.type === 'done') this.finish(m.record, reqId);
      else this.finish(m.error, reqId);
    };
    const req: WorkerRequest = { type: 'run', reqId, id, params, seed };
    worker.postMessage(req);
    return { promise, cancel: () => (this.inflight?.reqId === reqId ? this.cancel() : undefined) };
  }

  /** Stops the run in flight, if any; its promise resolves with code 'cancelled'. */
  cancel(): void {
    if (!this.inflight) return;
    this.worker?.terminate();
    this.worker = null;
    this.finish({ ok: false, code: 'cancelled', message: 'run cancelled' });
  }

  dispose(): void {
    this.cancel();
    this.worker?.terminate();
    this.worker = null;
  }
}
