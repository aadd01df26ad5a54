/**
 * Client load with a recorded history, for the real cluster's integration tests: HTTP clients
 * put, delete and get random keys until stopped, each operation recorded with its invocation
 * and completion time; a final read of every key; the history's text for the core's
 * checkHistory (history_text.h), the same per-key linearizability checker as the simulation's.
 * An operation that got no definite answer is not ok: it may or may not have taken effect.
 */
import { Rng } from './loadgen.js';

export interface HistOp {
  kind: 'put' | 'get' | 'del';
  key: string;
  value: string;
  found: boolean;
  invokeNs: number;
  completeNs: number;
  ok: boolean;
}

export interface CheckReport {
  ok: boolean;
  error?: string;
  operations: number;
  violations: number;
  undetermined_keys: number;
  details: string[];
}

/** Polls `test` every 100 ms until it holds; throws naming `what` after `ms`. */
export async function waitFor(what: string, ms: number, test: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await test().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${ms / 1000} s waiting for ${what}`);
}

export class HistoryLoad {
  readonly hist: HistOp[] = [];
  private readonly t0 = process.hrtime.bigint();
  private stopped = false;
  private running: Array<Promise<void>> = [];
  private n = 0;

  /** `clients` loops over `keys` keys against http://`http`, their choices from `seed`. */
  constructor(private readonly http: string, private readonly seed: number, private readonly keys: number, private readonly clients: number) {}

  now(): number {
    return Number(process.hrtime.bigint() - this.t0);
  }

  start(): void {
    this.running = Array.from({ length: this.clients }, (_, i) => this.client(i));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.running);
  }

  private async client(id: number): Promise<void> {
    const rng = new Rng(this.seed * 100 + id);
    const base = `http://${this.http}`;
    while (!this.stopped) {
      const key = `k${Math.floor(rng.next() * this.keys)}`;
      const r = rng.next();
      const op: HistOp = { kind: r < 0.4 ? 'put' : r < 0.5 ? 'del' : 'get', key, value: '', found: false, invokeNs: this.now(), completeNs: -1, ok: false };
      if (op.kind === 'put') op.value = `c${id}-${this.n++}`;
      this.hist.push(op);
      try {
        const url = `${base}/kv/${key}`;
        const res = op.kind === 'put' ? await fetch(url, { method: 'PUT', body: op.value })
          : op.kind === 'del' ? await fetch(url, { method: 'DELETE' }) : await fetch(url);
        const body = await res.text();
        if (res.status === 200 || (op.kind === 'get' && res.status === 404)) {
          op.ok = true;
          op.completeNs = this.now();
          if (op.kind === 'get') {
            op.found = res.status === 200;
            op.value = op.found ? body : '';
          }
        }
      } catch {
        // a refused or broken request: not ok, may or may not have taken effect
      }
    }
  }

  /** Reads every key once more (an acknowledged write that was lost shows up here); returns the reads that failed. */
  async finalReads(): Promise<string[]> {
    const bad: string[] = [];
    for (let k = 0; k < this.keys; k++) {
      const op: HistOp = { kind: 'get', key: `k${k}`, value: '', found: false, invokeNs: this.now(), completeNs: -1, ok: false };
      const res = await fetch(`http://${this.http}/kv/k${k}`);
      const body = await res.text();
      op.completeNs = this.now();
      op.ok = res.status === 200 || res.status === 404;
      op.found = res.status === 200;
      op.value = op.found ? body : '';
      this.hist.push(op);
      if (!op.ok) bad.push(`k${k}: ${res.status} ${body.slice(0, 80)}`);
    }
    return bad;
  }

  /** The puts invoked in [fromNs, toNs): how many, and how many were acknowledged. */
  puts(fromNs: number, toNs: number): { issued: number; acked: number } {
    const ps = this.hist.filter((o) => o.kind === 'put' && o.invokeNs >= fromNs && o.invokeNs < toNs);
    return { issued: ps.length, acked: ps.filter((o) => o.ok).length };
  }

  acknowledgedWrites(): number {
    return this.hist.filter((o) => o.ok && o.kind !== 'get').length;
  }

  /** The history in history_text.h's format. */
  text(): string {
    return this.hist.map((o) => [o.kind, o.key, o.value, o.found ? 1 : 0, o.invokeNs, o.completeNs, o.ok ? 1 : 0].join('\t')).join('\n');
  }

  check(checkHistory: (text: string) => string): CheckReport {
    return JSON.parse(checkHistory(this.text())) as CheckReport;
  }
}
