// Status bookkeeping: percentiles, per-interval rates and latencies, per-node rates, and
// the checks on the node's status JSON.
import { describe, expect, it } from 'vitest';
import { LatencyWindow, NodeRates, parseCoreStatus, percentile } from './status.js';

describe('status', () => {
  it('takes nearest-rank percentiles', () => {
    const xs = [...Array(100).keys()].map((i) => i + 1);
    expect([percentile(xs, 0.5), percentile(xs, 0.99), percentile(xs, 1), percentile([], 0.5), percentile([7], 0.99)]).toEqual([50, 99, 100, 0, 7]);
  });

  it('rolls intervals of client requests', () => {
    const w = new LatencyWindow();
    const t0 = Date.now();
    for (let i = 1; i <= 100; i++) w.record('get', true, i * 1e6);
    w.record('put', false, 0);
    const s = w.roll(t0 + 2000);
    expect(s.ops.get).toBeCloseTo(50, 0);
    expect(s.errors).toBeCloseTo(0.5, 1);
    expect(s.latencyMs).toEqual({ p50: 50, p99: 99, max: 100 });
    expect(w.roll(t0 + 3000).ops.get).toBe(0);
  });

  it('keeps each answering back-end\'s latency apart', () => {
    const w = new LatencyWindow();
    for (let i = 1; i <= 10; i++) w.record('get', true, i * 1e6, 0);
    for (let i = 1; i <= 4; i++) w.record('get', true, 100e6, 2);
    w.record('get', true, 5e6);        // a cache hit: no back-end
    w.record('get', false, 0, 0);      // a failure: no latency
    const s = w.roll();
    expect(s.perNode).toEqual({ 0: { p50: 5, p99: 10, n: 10 }, 2: { p50: 100, p99: 100, n: 4 } });
    expect(w.roll().perNode).toEqual({});
  });

  it('turns node counters into rates', () => {
    const r = new NodeRates();
    expect(r.update([{ id: 0, state: 'up', served: 10 }], 1000).get(0)).toBe(0);
    expect(r.update([{ id: 0, state: 'up', served: 30 }, { id: 1, state: 'up', served: 5 }], 1500)).toEqual(new Map([[0, 40], [1, 0]]));
    expect(r.update([{ id: 0, state: 'up', served: 0 }], 2000).get(0)).toBe(0); // a restart
  });

  it('checks the node\'s status JSON', () => {
    expect(parseCoreStatus('nope')).toMatch(/not JSON/);
    expect(parseCoreStatus('{"nodes":[{"id":"x"}]}')).toMatch(/no valid "nodes"/);
    expect(parseCoreStatus('{"nodes":[{"id":1,"state":"up"}]}')).toEqual({ nodes: [{ id: 1, state: 'up' }], ring: [], chains: [], changes: [], events: [] });
  });
});
