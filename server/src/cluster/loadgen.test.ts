// The load generator: settings validation naming each bad field, a reproducible arrival
// sequence per seed, Poisson arrival counts, the put fraction, Zipf key popularity, multiget
// width, the outstanding cap with skips counted, per-interval latency percentiles and errors,
// and a run against the fake cluster through the real host loop (KvDriver).
import { describe as group, expect, it } from 'vitest';
import { fakeCluster } from './kvhost.fake.js';
import { ArrivalStream, LOAD_DEFAULTS, LoadGenerator, parseLoadSettings, Rng, ZipfKeys, type LoadClient, type LoadSettings } from './loadgen.js';

const SEED = Number(process.env.LOADGEN_SEED ?? 20240611);
console.log(`loadgen tests: seed ${SEED} (set LOADGEN_SEED to change)`);

const settings = (o: Partial<LoadSettings> = {}): LoadSettings => ({ ...LOAD_DEFAULTS, ...o });

/** A client that records calls and answers when told (or at once with `auto`). */
function recorder(auto = true) {
  const calls: string[] = [];
  const waiting: Array<(ok: boolean) => void> = [];
  const answer = (name: string) => {
    calls.push(name);
    return auto ? Promise.resolve({ ok: true }) : new Promise<{ ok: boolean; error?: string }>((r) => waiting.push((ok) => r(ok ? { ok } : { ok, error: 'boom' })));
  };
  const client: LoadClient = {
    get: (k) => answer(`get ${k}`),
    put: (k, v) => answer(`put ${k} ${v.length}`),
    multiget: (ks) => answer(`multiget ${ks.join(',')}`),
  };
  return { client, calls, waiting };
}

const flush = () => new Promise((r) => setImmediate(r));

group('parseLoadSettings', () => {
  it('takes good settings over the defaults and an optional seed', () => {
    expect(parseLoadSettings({ rate: 500, zipf: 0.99, seed: 7 })).toEqual({ settings: settings({ rate: 500, zipf: 0.99 }), seed: 7 });
    expect(parseLoadSettings({}, settings({ rate: 3 }))).toEqual({ settings: settings({ rate: 3 }) });
  });

  it('names every bad field', () => {
    const r = parseLoadSettings({ rate: -3, putFraction: '0.5', keys: 1.5, zipf: 3, valueBytes: 2 ** 21, multigetWidth: 257, colour: 'red', seed: -1 });
    expect('errors' in r && r.errors).toEqual([
      'rate must be a number from 0.1 to 100000 (arrivals per second), not -3',
      'putFraction must be a number from 0 to 1 (the fraction of puts), not "0.5"',
      'keys must be an integer from 1 to 1000000 (the number of keys), not 1.5',
      'zipf must be a number from 0 to 2 (the Zipf exponent (0 = uniform)), not 3',
      'valueBytes must be an integer from 0 to 1048576 (the value size in bytes), not 2097152',
      'multigetWidth must be an integer from 1 to 256 (keys per get), not 257',
      expect.stringMatching(/^unknown field "colour" \(the fields are rate, putFraction/),
      'seed must be an integer from 0 to 4294967295, not -1',
    ]);
    for (const bad of [null, [1], 'x', 3]) expect(parseLoadSettings(bad)).toEqual({ errors: [expect.stringMatching(/must be a JSON object/)] });
    expect(parseLoadSettings({ rate: null })).toEqual({ errors: ['rate must be a number from 0.1 to 100000 (arrivals per second), not null'] });
    expect(parseLoadSettings({ toString: 1 })).toEqual({ errors: [expect.stringMatching(/unknown field "toString"/)] });
  });
});

group('the arrival stream', () => {
  const take = (seed: number, s: LoadSettings, n: number) => {
    const a = new ArrivalStream(seed, s);
    return Array.from({ length: n }, () => ({ gap: a.gap(), op: a.op() }));
  };

  it('is the same for the same seed and differs for another', () => {
    const s = settings({ putFraction: 0.3, zipf: 1, multigetWidth: 4 });
    expect(take(SEED, s, 200)).toEqual(take(SEED, s, 200));
    expect(take(SEED + 1, s, 50)).not.toEqual(take(SEED, s, 50));
  });

  it('draws uniform doubles', () => {
    const r = new Rng(SEED);
    const xs = Array.from({ length: 100_000 }, () => r.next());
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(4 * Math.sqrt(1 / 12 / xs.length)); // 4σ
  });

  it('has exponential gaps with mean 1/rate and the asked put fraction', () => {
    const n = 40_000;
    const arr = take(SEED, settings({ rate: 250, putFraction: 0.2 }), n);
    const mean = arr.reduce((a, x) => a + x.gap, 0) / n;
    expect(Math.abs(mean - 1 / 250)).toBeLessThan(4 * (1 / 250) / Math.sqrt(n)); // σ of the mean = mean/√n
    const puts = arr.filter((x) => x.op.kind === 'put').length / n;
    expect(Math.abs(puts - 0.2)).toBeLessThan(4 * Math.sqrt(0.2 * 0.8 / n));
    const put = arr.find((x) => x.op.kind === 'put')!.op;
    expect(put.kind === 'put' && put.value.length).toBe(100);
  });

  it('draws keys with Zipf popularity, or uniformly at 0', () => {
    const n = 50_000;
    const count = (s: number) => {
      const z = new ZipfKeys(100, s);
      const r = new Rng(SEED);
      const c = new Array<number>(100).fill(0);
      for (let i = 0; i < n; i++) c[z.draw(r.next())]!++;
      return c;
    };
    const h = Array.from({ length: 100 }, (_, i) => 1 / (i + 1)).reduce((a, b) => a + b, 0);
    const zipf = count(1);
    for (const i of [0, 1, 9, 99]) {
      const p = 1 / (i + 1) / h;
      expect(Math.abs(zipf[i]! / n - p)).toBeLessThan(4 * Math.sqrt(p * (1 - p) / n));
    }
    const flat = count(0);
    for (const c of flat) expect(Math.abs(c / n - 0.01)).toBeLessThan(4 * Math.sqrt(0.01 * 0.99 / n));
    expect(new ZipfKeys(1, 1.5).draw(0.999)).toBe(0);
  });

  it('asks multigets of distinct keys, as many as there are keys at most', () => {
    const ops = take(SEED, settings({ putFraction: 0, multigetWidth: 16, zipf: 1.2 }), 100).map((x) => x.op);
    for (const op of ops) {
      expect(op.kind).toBe('multiget');
      if (op.kind === 'multiget') expect(new Set(op.keys).size).toBe(op.keys.length);
    }
    expect(ops.filter((o) => o.kind === 'multiget' && o.keys.length === 16).length).toBeGreaterThan(90);
    const small = take(SEED, settings({ putFraction: 0, multigetWidth: 16, keys: 3 }), 20).map((x) => x.op);
    for (const op of small) expect(op.kind === 'multiget' && op.keys.length).toBeLessThanOrEqual(3);
  });
});

group('LoadGenerator', () => {
  it('issues Poisson arrivals open loop and counts ops per second', async () => {
    let now = 0;
    const { client, calls } = recorder();
    const g = new LoadGenerator(client, { nowMs: () => now });
    expect(g.begin(settings({ rate: 1000 }), SEED, false)).toBe(SEED);
    for (now = 0; now <= 10_000; now += 5) {
      g.tick(now);
      if (now % 100 === 0) await flush(); // answers come back (under the outstanding cap)
    }
    await flush();
    // 10 s at 1000/s: Poisson, σ = 100.
    expect(Math.abs(calls.length - 10_000)).toBeLessThan(400);
    const iv = g.roll(now);
    expect(iv.seconds).toBeCloseTo(10.005, 6);
    expect(iv.opsPerS).toBeCloseTo(calls.length / 10.005, 6);
    expect(iv.errorsPerS).toBe(0);
    expect(iv.skippedPerS).toBe(0);
    expect(g.status()).toMatchObject({ running: true, seed: SEED, totals: { issued: calls.length, completed: calls.length, skipped: 0 } });
  });

  it('sends the same requests for the same seed', async () => {
    const run = async () => {
      let now = 0;
      const { client, calls } = recorder();
      const g = new LoadGenerator(client, { nowMs: () => now });
      g.begin(settings({ rate: 300, putFraction: 0.5, multigetWidth: 3, zipf: 0.8, keys: 50 }), 99, false);
      for (now = 0; now <= 2000; now += 10) g.tick(now);
      await flush();
      return calls;
    };
    const a = await run();
    expect(a.length).toBeGreaterThan(400);
    expect(a.some((c) => c.startsWith('put k'))).toBe(true);
    expect(a.some((c) => /^multiget k\d+,k\d+,k\d+$/.test(c))).toBe(true);
    expect(await run()).toEqual(a);
  });

  it('skips arrivals over the outstanding cap and counts them', async () => {
    let now = 0;
    const { client, calls, waiting } = recorder(false);
    const g = new LoadGenerator(client, { nowMs: () => now, maxOutstanding: 10 });
    g.begin(settings({ rate: 1000 }), SEED, false);
    for (now = 0; now <= 1000; now += 5) g.tick(now);
    expect(calls.length).toBe(10);
    const st = g.status();
    expect(st.totals.skipped).toBeGreaterThan(800);
    for (const w of waiting.splice(0)) w(true);
    await flush();
    const iv = g.roll(now);
    expect(iv.skippedPerS * iv.seconds).toBeCloseTo(st.totals.skipped, 6);
    expect(iv.offeredPerS * iv.seconds).toBeCloseTo(st.totals.skipped + 10, 6);
    expect(iv.outstanding).toBe(0);
    // Room again: the next arrivals go out.
    for (; now <= 1100; now += 5) g.tick(now);
    expect(calls.length).toBeGreaterThan(10);
  });

  it('reports p50/p99 latency and errors per interval', async () => {
    let now = 0;
    const { client, waiting } = recorder(false);
    const g = new LoadGenerator(client, { nowMs: () => now });
    g.begin(settings({ rate: 100_000 }), SEED, false);
    now = 1; // ~100 arrivals due at once
    g.tick(now);
    const n = waiting.length;
    expect(n).toBeGreaterThan(50);
    // Answer request i after i+1 ms; the last one fails.
    for (let i = 0; i < n; i++) {
      now = 1 + i + 1;
      waiting[i]!(i < n - 1);
      await flush();
    }
    g.stop();
    const iv = g.roll(now);
    const ok = n - 1;
    expect(iv.latencyMs.p50).toBe(Math.ceil(0.5 * ok));
    expect(iv.latencyMs.p99).toBe(Math.ceil(0.99 * ok));
    expect(iv.latencyMs.max).toBe(ok);
    expect(iv.errorsPerS * iv.seconds).toBeCloseTo(1, 6);
    expect(iv.lastError).toBe('boom');
    expect(g.status()).toMatchObject({ running: false, totals: { errors: 1, completed: n } });
  });

  it('changes settings while running and keeps the seed; a client that throws counts as an error', async () => {
    let now = 0;
    const calls: string[] = [];
    const client: LoadClient = {
      get: async () => { calls.push('get'); return { ok: true }; },
      put: () => { calls.push('put'); throw new Error('refused'); },
      multiget: async () => { calls.push('multiget'); return { ok: true }; },
    };
    const g = new LoadGenerator(client, { nowMs: () => now });
    g.begin(settings({ rate: 500, putFraction: 0 }), 5, false);
    for (; now <= 1000; now += 5) g.tick(now);
    expect(calls.every((c) => c === 'get')).toBe(true);
    expect(g.begin(settings({ rate: 500, putFraction: 1 }), undefined, false)).toBe(5);
    const before = calls.length;
    for (; now <= 2000; now += 5) g.tick(now);
    await flush();
    expect(calls.slice(before).every((c) => c === 'put')).toBe(true);
    const iv = g.roll(now);
    expect(iv.ops.put).toBeGreaterThan(0);
    expect(iv.errorsPerS).toBe(iv.ops.put);
    expect(iv.lastError).toBe('refused');
  });

  it('drives the fake cluster through the host loop', async () => {
    const c = await fakeCluster(2);
    const g = new LoadGenerator(c.front, { tickMs: 2 });
    try {
      g.begin(settings({ rate: 400, putFraction: 0.5, multigetWidth: 4 }), SEED);
      await new Promise((r) => setTimeout(r, 400));
      g.stop();
      await new Promise((r) => setTimeout(r, 50));
      const iv = g.roll();
      expect(iv.ops.put + iv.ops.multiget).toBeGreaterThan(0);
      expect(iv.errorsPerS).toBe(0);
      expect(iv.latencyMs.p50).toBeGreaterThan(0);
      expect(iv.outstanding).toBe(0);
    } finally {
      g.stop();
      c.stop();
    }
  });
});
