import { describe, expect, it } from 'vitest';
import { sceneTexts } from '../../../viz/canvasScene';
import { netSnapshot } from './netFixtures';
import { planeScene, xOf, yOf } from './planeScene';

const f = { left: 0, top: 0, plotW: 100, plotH: 100 };

describe('planeScene', () => {
  it('places points on log axes, clamped to them', () => {
    expect(xOf(f, 1e4)).toBe(0);
    expect(xOf(f, 4e6)).toBeCloseTo(100);
    expect(xOf(f, 1e5) - xOf(f, 1e4)).toBeCloseTo(xOf(f, 1e6) - xOf(f, 1e5));
    expect(xOf(f, 1)).toBe(0);
    expect(yOf(f, 50)).toBe(100);
    expect(yOf(f, 50_000)).toBeCloseTo(0);
    expect(yOf(f, 1e9)).toBeCloseTo(0);
  });

  it('draws the trail, the point now with its p99, the offered load and the reporting rule, labelled', () => {
    const sc = planeScene(netSnapshot(), 600);
    const t = sceneTexts(sc);
    expect(sc.items.filter((it) => it.t === 'circle' && it.tag === 'trail')).toHaveLength(3);
    expect(sc.items.filter((it) => it.t === 'circle' && it.tag === 'now')).toHaveLength(1);
    expect(sc.items.filter((it) => it.t === 'circle' && it.tag === 'p99')).toHaveLength(1);
    expect(t).toContain('400k/s · p50 392 µs');
    expect(t).toContain('offered 408k/s');
    expect(t).toContain('p50 = 1 ms (reporting rule)');
    expect(t).toContain('throughput (lookups answered per second, log)');
    expect(t).toContain('median latency (µs, log) · ring: p99');
  });

  it('draws no point before any RPC is answered', () => {
    const sn = netSnapshot({ trail: [], latency_us: { rpcs: 0, p50: 0, p99: 0, mean: 0 } });
    sn.rates = { ...sn.rates, throughput_per_s: 0 };
    expect(planeScene(sn, 330).items.some((it) => it.t === 'circle')).toBe(false);
  });
});
