/**
 * The C++ host node (wasm-core/src/fawnkvhost, issue 6 design) behind a typed API, and the
 * loop that drives it. The node never calls JS: this host advances it by the process's
 * monotonic clock (ns from the driver's start) whenever a frame arrives, a client request
 * is made, or its earliest timer (nextTimerNs) is due (advance comes first, so a frame or a
 * request enters the node at the current time); after each turn it runs the beforeSend hook
 * (so what the turn decided can be made durable before any message says so), sends the outbox
 * and settles finished client requests. A request the node has not finished within
 * REQUEST_BACKSTOP_MS settles as an error (its late answer is dropped), so no client waits
 * forever (the node itself fails a request after REQUEST_TIMEOUT_MS, the config's timeoutMs).
 * A failed request says why (KvResult.failure: the store had no room, a value too large, a
 * bad request, a timeout). Binary data crosses as Uint8Array and is copied out at once (a view into WASM
 * memory would not survive the memory growing).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { NODE_CORE } from '../core.js';
import { REQUEST_BACKSTOP_MS } from './limits.js';

/** What the node's constructor takes (as JSON). */
export interface KvNodeConfig {
  role: 'backend' | 'frontend';
  id?: number;               // the back-end's id (the front-end, endpoint -1, has none)
  dataDir: string;
  replicas: number;
  vids: number;
  fileBytes: number;         // each FAWN-DS store's file (the card.img device holds many)
  heartbeatMs: number;
  missed: number;            // heartbeats missed before a back-end is declared failed
  cacheEntries: number;      // the front-end's query cache (0 = off)
  recoverMs?: number;        // front-end: how long a restored ring waits for its back-ends
  timeoutMs?: number;        // front-end: a request unanswered this long fails (REQUEST_TIMEOUT_MS)
}

/** Why a request failed (host_node.h's DoneOp::status; "failed" for anything else). */
export type KvFailure = 'no-space' | 'too-large' | 'bad-request' | 'timeout' | 'failed';

export interface RawDone {
  req: number;
  ok: boolean;
  found: boolean;
  value: Uint8Array;
  values?: Array<{ ok?: boolean; found: boolean; value: Uint8Array }>;  // multiget, in key order (ok: that key answered)
  error: string;
  status?: string;  // "" or why it failed (KvFailure)
  latencyNs: number;
  node?: number;  // the back-end that answered (-1: none, or the front-end's cache)
}

/** The embind class's instance, exactly as the C++ side exposes it. */
export interface RawKvHostNode {
  ok(): boolean;                                      // false after a bad config; error() says why
  error(): string;
  advance(nowNs: number): void;
  deliver(from: number, bytes: Uint8Array): string;   // "" or why the frame was dropped
  takeOutbox(): Array<{ to: number; bytes: Uint8Array }>;
  nextTimerNs(): number;                              // -1: no timer pending
  put(key: Uint8Array, value: Uint8Array): number;
  get(key: Uint8Array): number;
  del(key: Uint8Array): number;
  multiget(keys: Uint8Array[]): number;
  takeDone(): RawDone[];
  addBackend(id: number): string;                     // "" or why not
  removeBackend(id: number): string;
  failBackend(id: number): string;
  statusJson(): string;
  restoreRing(json: string): string;                  // front-end: "" or why the persisted ring was refused
  ringJson(): string;                                 // front-end: DIR/frontend/ring.json's text
  ringVersion(): number;                              // changes whenever ringJson would
  recovered(): RecoveredStores | string;              // back-end: what it found in its data dir (an object; a string in older fakes)
  delete(): void;                                     // frees the C++ object
}

/** What a back-end recovered from its data directory at start. */
export interface RecoveredStores {
  stores?: number;
  records?: number;
  ranges?: Array<[string, string]>;
  detail?: string;
}

/** One line saying what a back-end recovered. */
export function describeRecovered(r: RecoveredStores | string): string {
  const v = typeof r === 'string' ? (JSON.parse(r || '{}') as RecoveredStores) : r;
  if (!v.stores) return 'nothing to recover (a fresh data directory)';
  return `${v.stores} store${v.stores === 1 ? '' : 's'} with ${v.records ?? 0} records recovered from disk`;
}

export interface KvHostModule {
  KvHostNode: new (configJson: string) => RawKvHostNode;
  /** The FAWN-KV linearizability checker over a history in fawnkv/history_text.h's format; JSON. */
  checkHistory?: (historyText: string) => string;
  getExceptionMessage?: (e: unknown) => [string, string];
}

/** Loads the Node build of the core. Throws if it is missing or has no KvHostNode (setup problems). */
export async function loadKvHost(path = NODE_CORE): Promise<KvHostModule> {
  if (!existsSync(path)) throw new Error(`the WebAssembly core is not built (${path} is missing); run 'npm run build'`);
  const factory = createRequire(import.meta.url)(path) as () => Promise<KvHostModule>;
  const mod = await factory();
  if (typeof mod.KvHostNode !== 'function') throw new Error(`${path} has no KvHostNode; rebuild the core ('npm run build')`);
  return mod;
}

/** A node for `config`, or the error naming what is wrong with it. */
export function createKvHostNode(mod: KvHostModule, config: KvNodeConfig): RawKvHostNode | string {
  let node: RawKvHostNode;
  try {
    node = new mod.KvHostNode(JSON.stringify(config));
  } catch (e) {
    if (e instanceof Error) return e.message;
    return mod.getExceptionMessage ? mod.getExceptionMessage(e).join(': ') : `the core refused the config (${String(e)})`;
  }
  const why = node.ok() ? '' : node.error() || 'the core refused the config';
  if (why !== '') {
    node.delete();
    return why;
  }
  return node;
}

export type KvOp = 'put' | 'get' | 'del' | 'multiget';

export interface KvResult {
  ok: boolean;
  found: boolean;
  value: Buffer;
  values: Array<{ found: boolean; value: Buffer }>;  // multiget, in key order
  error: string;
  failure: KvFailure | null;  // null when ok
  latencyNs: number;
  node: number;  // the back-end that answered, or -1
}

/** The client side of a front-end node, as the HTTP and memcached layers use it. */
export interface KvClient {
  put(key: Buffer, value: Buffer): Promise<KvResult>;
  get(key: Buffer): Promise<KvResult>;
  del(key: Buffer): Promise<KvResult>;
  multiget(keys: Buffer[]): Promise<KvResult>;
}

export interface DriverOptions {
  send: (to: number, bytes: Uint8Array) => void;
  log: (line: string) => void;
  onDone?: (op: KvOp, r: KvResult) => void;
  requestTimeoutMs?: number;
  nowNs?: () => number;      // default: process.hrtime since the driver started
  maxSleepMs?: number;       // the longest the loop sleeps between advances (default 1000)
  /** Runs after each advance, before the outbox is sent (the front-end persists its ring here). */
  beforeSend?: () => void;
}

function failed(error: string, failure: KvFailure = 'failed'): KvResult {
  return { ok: false, found: false, value: Buffer.alloc(0), values: [], error, failure, latencyNs: 0, node: -1 };
}

const FAILURES = new Set<string>(['no-space', 'too-large', 'bad-request', 'timeout']);

interface Pending {
  op: KvOp;
  settle: (r: KvResult) => void;
  timer: NodeJS.Timeout;
}

export class KvDriver implements KvClient {
  private readonly pending = new Map<number, Pending>();
  private timer: NodeJS.Timeout | null = null;
  private timerAtNs = Infinity;
  private immediate: NodeJS.Immediate | null = null;
  private stopped = false;
  private readonly nowNs: () => number;
  private deliverErrors = 0;

  constructor(readonly node: RawKvHostNode, private readonly o: DriverOptions) {
    const t0 = process.hrtime.bigint();
    this.nowNs = o.nowNs ?? (() => Number(process.hrtime.bigint() - t0));
    this.pump();
  }

  /** One frame from peer `from`; a frame the node refuses is logged (sampled) and dropped. */
  deliver(from: number, bytes: Uint8Array): void {
    if (this.stopped) return;
    this.node.advance(this.nowNs()); // the frame enters the node at the current time
    const why = this.node.deliver(from, bytes);
    if (why !== '') {
      this.deliverErrors++;
      if (this.deliverErrors <= 10 || this.deliverErrors % 1000 === 0) {
        this.o.log(`dropped a frame from endpoint ${from}: ${why} (${this.deliverErrors} so far)`);
      }
    }
    this.soon();
  }

  put(key: Buffer, value: Buffer): Promise<KvResult> {
    return this.request('put', () => this.node.put(key, value));
  }

  get(key: Buffer): Promise<KvResult> {
    return this.request('get', () => this.node.get(key));
  }

  del(key: Buffer): Promise<KvResult> {
    return this.request('del', () => this.node.del(key));
  }

  multiget(keys: Buffer[]): Promise<KvResult> {
    return this.request('multiget', () => this.node.multiget(keys));
  }

  /** Runs a membership call and the loop after it; returns "" or the node's error. */
  membership(change: 'addBackend' | 'removeBackend' | 'failBackend', id: number): string {
    const why = this.node[change](id);
    this.soon();
    return why;
  }

  /** Stops the loop and settles every open request as failed. Does not free the node. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.settle(failed('the front-end is shutting down'));
    }
    this.pending.clear();
  }

  private request(op: KvOp, start: () => number): Promise<KvResult> {
    if (this.stopped) return Promise.resolve(failed('the front-end is shutting down'));
    return new Promise((settle) => {
      this.node.advance(this.nowNs()); // the request starts at the current time
      const req = Number(start()); // numbers either way, should the binding hand out BigInts
      const ms = this.o.requestTimeoutMs ?? REQUEST_BACKSTOP_MS;
      const timer = setTimeout(() => {
        this.pending.delete(req);
        settle(failed(`no answer from the cluster within ${ms} ms`, 'timeout'));
      }, ms);
      this.pending.set(req, { op, settle, timer });
      this.soon();
    });
  }

  /** Advances at the next turn of the event loop (coalescing bursts of I/O). */
  private soon(): void {
    if (this.immediate || this.stopped) return;
    this.immediate = setImmediate(() => {
      this.immediate = null;
      this.pump();
    });
  }

  private pump(): void {
    if (this.stopped) return;
    const now = this.nowNs();
    this.node.advance(now);
    this.o.beforeSend?.();
    for (const { to, bytes } of this.node.takeOutbox()) this.o.send(to, bytes);
    for (const d of this.node.takeDone()) this.settle(d);
    this.schedule(now);
  }

  private settle(d: RawDone): void {
    const req = Number(d.req);
    const p = this.pending.get(req);
    if (!p) return; // timed out already
    this.pending.delete(req);
    clearTimeout(p.timer);
    const failedKeys = (d.values ?? []).filter((v) => v.ok === false).length;
    const ok = d.ok && failedKeys === 0;
    const r: KvResult = {
      ok,
      failure: ok ? null : FAILURES.has(d.status ?? '') ? (d.status as KvFailure) : failedKeys ? 'timeout' : 'failed',
      found: d.found,
      value: Buffer.from(d.value ?? []),
      values: (d.values ?? []).map((v) => ({ found: v.found, value: Buffer.from(v.value ?? []) })),
      error: d.error || (failedKeys ? `${failedKeys} of ${d.values!.length} keys got no answer` : ''),
      latencyNs: Number(d.latencyNs),
      node: d.node === undefined ? -1 : Number(d.node),
    };
    this.o.onDone?.(p.op, r);
    p.settle(r);
  }

  private schedule(now: number): void {
    const next = Number(this.node.nextTimerNs());
    const maxNs = (this.o.maxSleepMs ?? 1000) * 1e6;
    const at = next < 0 ? now + maxNs : Math.min(next, now + maxNs);
    if (this.timer && at >= this.timerAtNs) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAtNs = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAtNs = Infinity;
      this.pump();
    }, Math.max(0, Math.ceil((at - now) / 1e6)));
  }
}
