/**
 * A load generator for the cluster, generic over a client ({get, put, multiget}) so it drives
 * the front-end's in-process node (the Cluster page's generator, POST /cluster/load) and,
 * later, a memcached client in a separate process (the benchmark).
 *
 * Open loop: arrivals are a Poisson process at `rate` per second (exponential gaps), issued
 * whether or not earlier requests have answered, up to `maxOutstanding` at once; an arrival
 * over that cap is skipped and counted, never queued (so a slow cluster shows as skips and
 * latency, not as a quietly lower offered rate). Each arrival is a put with probability
 * `putFraction`, else a get — a multiget of `multigetWidth` distinct keys when that is > 1.
 * Keys are k0 … k<keys−1>, drawn with Zipf popularity P(k_i) ∝ 1/(i+1)^zipf (0 = uniform);
 * a put's value is `valueBytes` bytes. The sequence of arrivals (gaps, operations, keys) is a
 * function of the seed and the settings alone: one xoshiro128** stream, drawn for every
 * arrival including skipped ones, so a run's request sequence is reproducible; which arrivals
 * get skipped depends on how fast the cluster answers.
 *
 * Latency is measured from the moment a request is handed to the client to its answer. Per
 * interval (`roll`): completed operations per second by kind, errors and skips per second,
 * p50/p99/max latency in ms. Time is passed in (`tick(nowMs)`, `roll(nowMs)`); `start` runs
 * the ticks on a timer with the process clock.
 */
import { MULTIGET_MAX_KEYS, VALUE_MAX_BYTES } from './limits.js';
import { percentile } from './status.js';
import type { LoadInterval, LoadSettings, LoadStatus } from '../wire/cluster.js';

/** What the generator needs of a client: each answer says whether it succeeded. */
export interface LoadClient {
  get(key: Buffer): Promise<{ ok: boolean; error?: string }>;
  put(key: Buffer, value: Buffer): Promise<{ ok: boolean; error?: string }>;
  multiget(keys: Buffer[]): Promise<{ ok: boolean; error?: string }>;
}

export type { LoadSettings } from '../wire/cluster.js';

export const LOAD_DEFAULTS: LoadSettings = { rate: 200, putFraction: 0.1, keys: 1000, zipf: 0, valueBytes: 100, multigetWidth: 1 };

/** Each setting's range and whether it must be an integer. */
export const LOAD_LIMITS: Record<keyof LoadSettings, { min: number; max: number; integer: boolean; what: string }> = {
  rate: { min: 0.1, max: 100_000, integer: false, what: 'arrivals per second' },
  putFraction: { min: 0, max: 1, integer: false, what: 'the fraction of puts' },
  keys: { min: 1, max: 1_000_000, integer: true, what: 'the number of keys' },
  zipf: { min: 0, max: 2, integer: false, what: 'the Zipf exponent (0 = uniform)' },
  valueBytes: { min: 0, max: VALUE_MAX_BYTES, integer: true, what: 'the value size in bytes' },
  multigetWidth: { min: 1, max: MULTIGET_MAX_KEYS, integer: true, what: 'keys per get' },
};

/**
 * Settings from a request body: each field given replaces the one in `base`; `seed` (an
 * unsigned 32-bit integer) is optional. Returns the settings or every problem, each naming its
 * field ("rate must be a number from 0.1 to 100000 (arrivals per second), not -3").
 */
export function parseLoadSettings(body: unknown, base: LoadSettings = LOAD_DEFAULTS): { settings: LoadSettings; seed?: number } | { errors: string[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { errors: ['the body must be a JSON object such as {"rate":500,"putFraction":0.1,"keys":1000,"zipf":0.99,"valueBytes":100,"multigetWidth":1}'] };
  }
  const errors: string[] = [];
  const out: LoadSettings = { ...base };
  let seed: number | undefined;
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (k === 'seed') {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff) errors.push(`seed must be an integer from 0 to 4294967295, not ${JSON.stringify(v)?.slice(0, 40)}`);
      else seed = v;
      continue;
    }
    const lim = LOAD_LIMITS[k as keyof LoadSettings];
    if (!lim || !Object.prototype.hasOwnProperty.call(LOAD_LIMITS, k)) {
      errors.push(`unknown field "${k.slice(0, 40)}" (the fields are ${Object.keys(LOAD_LIMITS).join(', ')}, seed)`);
      continue;
    }
    const ok = typeof v === 'number' && Number.isFinite(v) && v >= lim.min && v <= lim.max && (!lim.integer || Number.isInteger(v));
    if (!ok) errors.push(`${k} must be ${lim.integer ? 'an integer' : 'a number'} from ${lim.min} to ${lim.max} (${lim.what}), not ${JSON.stringify(v)?.slice(0, 40)}`);
    else out[k as keyof LoadSettings] = v;
  }
  return errors.length ? { errors } : { settings: out, ...(seed !== undefined ? { seed } : {}) };
}

/** xoshiro128** (Blackman & Vigna), seeded through splitmix32: uniform doubles in [0, 1). */
export class Rng {
  private s = new Uint32Array(4);

  constructor(seed: number) {
    let x = seed >>> 0;
    for (let i = 0; i < 4; i++) {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      this.s[i] = (z ^ (z >>> 16)) >>> 0;
    }
  }

  u32(): number {
    const s = this.s;
    const result = Math.imul(rotl(Math.imul(s[1]!, 5) >>> 0, 7), 9) >>> 0;
    const t = (s[1]! << 9) >>> 0;
    s[2]! ^= s[0]!;
    s[3]! ^= s[1]!;
    s[1]! ^= s[2]!;
    s[0]! ^= s[3]!;
    s[2]! ^= t;
    s[3] = rotl(s[3]!, 11);
    return result;
  }

  /** A double in [0, 1) with 53 random bits. */
  next(): number {
    return ((this.u32() >>> 5) * 67108864 + (this.u32() >>> 6)) / 9007199254740992;
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/** Draws key ranks 0 … n−1 with P(i) ∝ 1/(i+1)^s (s = 0: uniform) by inverting the CDF. */
export class ZipfKeys {
  private readonly cdf: Float64Array | null;

  constructor(readonly n: number, readonly s: number) {
    if (s === 0) {
      this.cdf = null;
      return;
    }
    const cdf = new Float64Array(n);
    let sum = 0;
    for (let i = 0; i < n; i++) cdf[i] = sum += 1 / Math.pow(i + 1, s);
    for (let i = 0; i < n; i++) cdf[i]! /= sum;
    this.cdf = cdf;
  }

  draw(u: number): number {
    if (!this.cdf) return Math.min(this.n - 1, Math.floor(u * this.n));
    let lo = 0;
    let hi = this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cdf[mid]! > u) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

export type LoadOp = { kind: 'put'; key: string; value: Buffer } | { kind: 'get'; key: string } | { kind: 'multiget'; keys: string[] };

/** The arrival sequence: a gap (s) and an operation per arrival, from the seed and the settings. */
export class ArrivalStream {
  private readonly rng: Rng;
  private zipf: ZipfKeys;
  private seq = 0;

  constructor(readonly seed: number, private settings: LoadSettings) {
    this.rng = new Rng(seed);
    this.zipf = new ZipfKeys(settings.keys, settings.zipf);
  }

  /** New settings from the next arrival on (the stream continues). */
  setSettings(s: LoadSettings): void {
    if (s.keys !== this.zipf.n || s.zipf !== this.zipf.s) this.zipf = new ZipfKeys(s.keys, s.zipf);
    this.settings = s;
  }

  /** Seconds until the next arrival (exponential with mean 1/rate). */
  gap(): number {
    return -Math.log(1 - this.rng.next()) / this.settings.rate;
  }

  op(): LoadOp {
    const s = this.settings;
    const n = this.seq++;
    const key = () => `k${this.zipf.draw(this.rng.next())}`;
    if (this.rng.next() < s.putFraction) {
      const k = key();
      return { kind: 'put', key: k, value: Buffer.alloc(s.valueBytes, `v${n}.`) };
    }
    if (s.multigetWidth <= 1) return { kind: 'get', key: key() };
    // Distinct keys (a client would not ask for one twice); bounded draws, so a hot key cannot stall it.
    const want = Math.min(s.multigetWidth, s.keys);
    const keys = new Set<string>();
    for (let tries = 0; keys.size < want && tries < want * 8; tries++) keys.add(key());
    return { kind: 'multiget', keys: [...keys] };
  }
}

export type { LoadInterval, LoadStatus } from '../wire/cluster.js';

export interface LoadGenOptions {
  maxOutstanding?: number;         // default 1000
  tickMs?: number;                 // how often start()'s timer issues due arrivals (default 5)
  nowMs?: () => number;            // default: the process's monotonic clock
  log?: (line: string) => void;
}

export class LoadGenerator {
  readonly maxOutstanding: number;
  private readonly nowMs: () => number;
  private stream: ArrivalStream | null = null;
  private settings: LoadSettings | null = null;
  private nextAtMs = 0;
  private timer: NodeJS.Timeout | null = null;
  private outstanding = 0;
  private generation = 0;           // answers from an earlier run are not counted in this one
  private totals = { issued: 0, completed: 0, errors: 0, skipped: 0 };
  private win = this.emptyWindow(0);
  private last: LoadInterval | null = null;

  constructor(private readonly client: LoadClient, private readonly o: LoadGenOptions = {}) {
    this.maxOutstanding = o.maxOutstanding ?? 1000;
    this.nowMs = o.nowMs ?? (() => performance.now());
  }

  get running(): boolean {
    return this.stream !== null;
  }

  get current(): LoadSettings | null {
    return this.settings;
  }

  /**
   * Starts with `settings` (a new seed unless given), or, when running, changes the settings
   * from the next arrival on (the stream and its seed continue unless a seed is given).
   * `timer`: run tick() on a timer (false when the caller ticks, as the tests do).
   */
  begin(settings: LoadSettings, seed?: number, timer = true): number {
    const now = this.nowMs();
    if (this.stream && seed === undefined) {
      this.stream.setSettings(settings);
      this.settings = settings;
      this.nextAtMs = now + this.stream.gap() * 1000;
      this.o.log?.(`load: now ${describe(settings)} (seed ${this.stream.seed})`);
      return this.stream.seed;
    }
    const s = seed ?? (Math.random() * 0x100000000) >>> 0;
    this.stream = new ArrivalStream(s, settings);
    this.settings = settings;
    this.generation++;
    this.totals = { issued: 0, completed: 0, errors: 0, skipped: 0 };
    this.outstanding = 0;
    this.win = this.emptyWindow(now);
    this.last = null;
    this.nextAtMs = now + this.stream.gap() * 1000;
    this.o.log?.(`load: started, ${describe(settings)}, seed ${s}`);
    if (timer && !this.timer) this.timer = setInterval(() => this.tick(this.nowMs()), this.o.tickMs ?? 5);
    return s;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.stream) this.o.log?.(`load: stopped after ${this.totals.completed} operations (${this.totals.errors} errors, ${this.totals.skipped} skipped)`);
    this.stream = null;
  }

  /** Issues (or skips, over the cap) every arrival due by `nowMs`. */
  tick(nowMs: number): void {
    const st = this.stream;
    if (!st) return;
    while (this.nextAtMs <= nowMs && this.stream === st) {
      const op = st.op();
      this.win.offered++;
      if (this.outstanding >= this.maxOutstanding) {
        this.win.skipped++;
        this.totals.skipped++;
      } else this.issue(op);
      this.nextAtMs += st.gap() * 1000;
    }
  }

  /** The interval since the last roll; starts a new one. */
  roll(nowMs = this.nowMs()): LoadInterval {
    const w = this.win;
    const seconds = Math.max(1e-3, (nowMs - w.since) / 1000);
    const sorted = w.lat.sort((a, b) => a - b);
    const r3 = (x: number) => Math.round(x * 1000) / 1000;
    const per = (n: number) => n / seconds;
    const out: LoadInterval = {
      seconds,
      opsPerS: per(w.get + w.put + w.multiget),
      ops: { get: per(w.get), put: per(w.put), multiget: per(w.multiget) },
      keysPerS: per(w.keys),
      errorsPerS: per(w.errors),
      skippedPerS: per(w.skipped),
      offeredPerS: per(w.offered),
      latencyMs: { p50: r3(percentile(sorted, 0.5)), p99: r3(percentile(sorted, 0.99)), max: r3(sorted[sorted.length - 1] ?? 0) },
      outstanding: this.outstanding,
      lastError: w.lastError,
    };
    this.win = this.emptyWindow(nowMs);
    this.last = out;
    return out;
  }

  status(): LoadStatus {
    return {
      running: this.running, settings: this.settings, seed: this.stream?.seed ?? null, maxOutstanding: this.maxOutstanding,
      totals: { ...this.totals }, interval: this.last,
    };
  }

  private issue(op: LoadOp): void {
    const gen = this.generation;
    const t0 = this.nowMs();
    this.outstanding++;
    this.totals.issued++;
    let p: Promise<{ ok: boolean; error?: string }>;
    try {
      p = op.kind === 'put' ? this.client.put(Buffer.from(op.key), op.value)
        : op.kind === 'get' ? this.client.get(Buffer.from(op.key))
          : this.client.multiget(op.keys.map((k) => Buffer.from(k)));
    } catch (e) {
      p = Promise.reject(e);
    }
    const keys = op.kind === 'multiget' ? op.keys.length : 1;
    const settle = (ok: boolean, error: string) => {
      if (gen !== this.generation) return;
      this.outstanding--;
      this.totals.completed++;
      const w = this.win;
      w[op.kind]++;
      w.keys += keys;
      if (ok) {
        if (w.lat.length < 200_000) w.lat.push(this.nowMs() - t0);
      } else {
        w.errors++;
        this.totals.errors++;
        w.lastError = error || 'failed';
      }
    };
    p.then((r) => settle(r.ok, r.error ?? ''), (e: unknown) => settle(false, e instanceof Error ? e.message : String(e)));
  }

  private emptyWindow(since: number) {
    return { since, get: 0, put: 0, multiget: 0, keys: 0, errors: 0, skipped: 0, offered: 0, lat: [] as number[], lastError: '' };
  }
}

/** "500 ops/s, 10% puts, 1000 keys (Zipf 0.99), 100-byte values, multiget width 1". */
export function describe(s: LoadSettings): string {
  return `${s.rate} ops/s, ${Math.round(s.putFraction * 1000) / 10}% puts, ${s.keys} keys (${s.zipf === 0 ? 'uniform' : `Zipf ${s.zipf}`}), `
    + `${s.valueBytes}-byte values, multiget width ${s.multigetWidth}`;
}
