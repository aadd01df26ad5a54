/**
 * TEST ONLY (excluded from the build): an in-memory stand-in for the C++ KvHostNode with the
 * same polling interface (kvcore.ts RawKvHostNode), so the host loop, the HTTP API and the
 * memcached port can be tested before and apart from the real core. It is NOT FAWN-KV: a
 * front-end sends every request to its lowest-numbered back-end as a frame
 * ([0xFA] + JSON) in its outbox; the back-end keeps a Map and answers after `delayNs` of the
 * host's clock, so answers need advance() and nextTimerNs() to work.
 */
import type { KvNodeConfig, RawDone, RawKvHostNode } from './kvcore.js';

type Op = { op: 'put' | 'get' | 'del' | 'multiget'; req: number; keys: string[]; value?: string };
type Reply = { req: number; found: boolean[]; values: string[] };

const b64 = (u: Uint8Array) => Buffer.from(u).toString('base64');
const frame = (o: unknown) => Buffer.concat([Buffer.from([0xfa]), Buffer.from(JSON.stringify(o))]);

export class FakeKvHostNode implements RawKvHostNode {
  static delayNs = 1_000_000;
  private readonly cfg: KvNodeConfig;
  private now = 0;
  private nextReq = 1;
  private outbox: Array<{ to: number; bytes: Uint8Array }> = [];
  private done: RawDone[] = [];
  private timers: Array<{ at: number; run: () => void }> = [];
  private started = new Map<number, { at: number; op: Op['op'] }>();
  private readonly store = new Map<string, string>();
  private readonly backends = new Set<number>();
  private events: unknown[] = [];
  private readonly bad: string;
  deleted = false;

  constructor(configJson: string) {
    this.cfg = JSON.parse(configJson) as KvNodeConfig;
    this.bad = this.cfg.role === 'frontend' || this.cfg.role === 'backend' ? '' : `role must be "frontend" or "backend"`;
  }

  ok(): boolean { return this.bad === ''; }
  error(): string { return this.bad; }

  advance(nowNs: number): void {
    this.now = nowNs;
    const due = this.timers.filter((t) => t.at <= nowNs);
    this.timers = this.timers.filter((t) => t.at > nowNs);
    for (const t of due) t.run();
  }

  nextTimerNs(): number {
    return this.timers.length ? Math.min(...this.timers.map((t) => t.at)) : -1;
  }

  takeOutbox() { const o = this.outbox; this.outbox = []; return o; }
  takeDone() { const d = this.done; this.done = []; return d; }

  deliver(from: number, bytes: Uint8Array): string {
    if (bytes[0] !== 0xfa) return 'bad magic';
    let msg: Op | Reply;
    try { msg = JSON.parse(Buffer.from(bytes.subarray(1)).toString()) as Op | Reply; } catch { return 'bad json'; }
    if (this.cfg.role === 'backend') {
      const m = msg as Op;
      this.timers.push({ at: this.now + FakeKvHostNode.delayNs, run: () => this.outbox.push({ to: from, bytes: frame(this.apply(m)) }) });
    } else {
      const r = msg as Reply;
      const s = this.started.get(r.req);
      if (!s) return `no request ${r.req}`;
      this.started.delete(r.req);
      const value = (i: number) => new Uint8Array(Buffer.from(r.values[i] ?? '', 'base64'));
      this.done.push({ req: r.req, ok: true, found: r.found[0] ?? false, value: value(0), error: '', latencyNs: this.now - s.at,
        ...(s.op === 'multiget' ? { values: r.found.map((f, i) => ({ found: f, value: value(i) })) } : {}) });
    }
    return '';
  }

  private apply(m: Op): Reply {
    const found = m.keys.map((k) => this.store.has(k));
    if (m.op === 'put') this.store.set(m.keys[0]!, m.value!);
    if (m.op === 'del') this.store.delete(m.keys[0]!);
    return { req: m.req, found, values: m.op === 'put' || m.op === 'del' ? [] : m.keys.map((k) => this.store.get(k) ?? '') };
  }

  private send(op: Op['op'], keys: Uint8Array[], value?: Uint8Array): number {
    const req = this.nextReq++;
    const live = [...this.backends].sort((a, b) => a - b);
    if (live.length === 0) {
      this.done.push({ req, ok: false, found: false, value: new Uint8Array(), error: 'no back-ends in the ring', latencyNs: 0 });
      return req;
    }
    this.started.set(req, { at: this.now, op });
    const to = live[0]!;
    this.outbox.push({ to, bytes: frame({ op, req, keys: keys.map(b64), ...(value ? { value: b64(value) } : {}) }) });
    return req;
  }

  put(key: Uint8Array, value: Uint8Array) { return this.send('put', [key], value); }
  get(key: Uint8Array) { return this.send('get', [key]); }
  del(key: Uint8Array) { return this.send('del', [key]); }
  multiget(keys: Uint8Array[]) { return this.send('multiget', keys); }

  addBackend(id: number): string {
    if (this.backends.has(id)) return `back-end ${id} is already in the ring`;
    this.backends.add(id);
    this.events.push({ kind: 'join', node: id, phase: 'done' });
    return '';
  }
  removeBackend(id: number): string { return this.backends.delete(id) ? '' : `back-end ${id} is not in the ring`; }
  failBackend(id: number): string {
    this.events.push({ kind: 'fail', node: id });
    return this.removeBackend(id);
  }

  restoreRing(): string { return 'the fake node keeps no ring'; }
  ringJson(): string { return ''; }
  ringVersion(): number { return 0; }
  statusJson(): string {
    const events = this.events;
    this.events = [];
    return JSON.stringify({
      nodes: [...this.backends].map((id) => ({ id, state: 'up', vids: 1, served: 0 })),
      ring: [], chains: [], changes: [], events,
    });
  }

  recovered(): string { return JSON.stringify({ stores: 0, records: this.store.size }); }
  delete(): void { this.deleted = true; }
}

/**
 * A front-end driver wired in-process to `backends` fake back-end drivers (their sends call
 * each other's deliver), all in the ring. `drop(id)` makes back-end `id` swallow frames.
 */
export async function fakeCluster(backends: number, opts: { requestTimeoutMs?: number } = {}) {
  const { KvDriver } = await import('./kvcore.js');
  const log: string[] = [];
  const drivers = new Map<number, InstanceType<typeof KvDriver>>();
  const dropped = new Set<number>();
  const config = (role: 'frontend' | 'backend', id: number) =>
    JSON.stringify({ role, id, dataDir: '', replicas: 1, vids: 1, fileBytes: 1, heartbeatMs: 500, missed: 3, cacheEntries: 0 });
  const send = (to: number, bytes: Uint8Array, from: number) => {
    if (!dropped.has(to)) setImmediate(() => drivers.get(to)?.deliver(from, bytes));
  };
  const front = new FakeKvHostNode(config('frontend', -1));
  drivers.set(-1, new KvDriver(front, { send: (to, b) => send(to, b, -1), log: (l) => log.push(l), ...opts }));
  for (let id = 0; id < backends; id++) {
    drivers.set(id, new KvDriver(new FakeKvHostNode(config('backend', id)), { send: (to, b) => send(to, b, id), log: (l) => log.push(l) }));
    front.addBackend(id);
  }
  return {
    front: drivers.get(-1)!,
    node: front,
    log,
    drop: (id: number) => dropped.add(id),
    stop: () => { for (const d of drivers.values()) d.stop(); },
  };
}
