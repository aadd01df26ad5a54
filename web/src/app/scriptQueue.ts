/**
 * A lesson scenario's `script` for a live view with operations (FAWN-DS, FAWN-KV): sent to the
 * session one operation per frame (the next once the last is answered), so the page stays
 * responsive and shows its progress while the scenario sets up; the first refused operation
 * drops the rest. `chunkFills` cuts a script's big fills into one chunk per frame first.
 */
import type { CoreError } from '../model/types';

/** An operation that puts `count` new records (the CONA and Stores sessions' `fill`). */
export type FillOp = { op: 'fill'; count: number };

function isFill(op: { op: string }): op is FillOp {
  return op.op === 'fill' && typeof (op as { count?: unknown }).count === 'number';
}

/**
 * `ops` with every fill of more than `chunk` records cut into fills of at most `chunk` (the
 * records in order, the total kept), so a frame runs one chunk; the other operations as they are.
 */
export function chunkFills<O extends { op: string }>(ops: O[], chunk: number): (O | FillOp)[] {
  const out: (O | FillOp)[] = [];
  for (const op of ops) {
    if (isFill(op) && op.count > chunk) {
      for (let done = 0; done < op.count; done += chunk) out.push({ op: 'fill', count: Math.min(chunk, op.count - done) });
    } else {
      out.push(op);
    }
  }
  return out;
}

export interface ScriptStep {
  /** Why the scenario stopped, or null. */
  error: string | null;
  /** "Setting up the scenario: step 3 of 8…" while operations remain, else ''. */
  status: string;
}

export class ScriptQueue<O extends { op: string }> {
  private ops: O[] = [];
  private total = 0;
  private inflight = false;
  private generation = 0;

  /** Replaces the queue (a new session); an answer to an earlier operation is then ignored. */
  load(ops: O[]): void {
    this.ops = [...ops];
    this.total = this.ops.length;
    this.inflight = false;
    this.generation++;
  }

  /** Whether operations remain or one is still being answered. */
  get busy(): boolean {
    return this.ops.length > 0 || this.inflight;
  }

  /**
   * Sends the next operation through `apply` unless one is in flight; `report` gets its
   * outcome. Returns whether the script is still running.
   */
  pump<R>(apply: (op: O) => Promise<R | CoreError>, report: (step: ScriptStep, op: O, result: R | CoreError) => void): boolean {
    if (this.inflight) return true;
    const op = this.ops.shift();
    if (!op) return false;
    const done = this.total - this.ops.length;
    const gen = this.generation;
    this.inflight = true;
    void apply(op).then((r) => {
      if (gen !== this.generation) return;
      this.inflight = false;
      const failed = typeof r === 'object' && r !== null && (r as { ok?: unknown }).ok === false;
      if (failed) {
        this.ops = [];
        report({ error: `The scenario's operation ${done} (${op.op}) failed: ${(r as CoreError).message}`, status: '' }, op, r);
      } else {
        report({ error: null, status: this.ops.length > 0 ? `Setting up the scenario: step ${done} of ${this.total}…` : '' }, op, r);
      }
    });
    return true;
  }
}
