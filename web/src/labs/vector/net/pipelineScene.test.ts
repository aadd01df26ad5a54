import { describe, expect, it } from 'vitest';
import { sceneTexts } from '../../../viz/canvasScene';
import { netSnapshot, singleKeySnapshot } from './netFixtures';
import { bundleLength, pipelineLayout, pipelineScene, progress } from './pipelineScene';

describe('pipelineScene', () => {
  it('draws a vector as one bar labelled by its width, one per RPC in flight', () => {
    const sc = pipelineScene(netSnapshot(), 700);
    const bars = sc.items.filter((it) => it.t === 'rect' && it.tag === '×32');
    expect(bars).toHaveLength(8);
    expect(sceneTexts(sc).filter((t) => t === '32')).toHaveLength(8);
    expect(sc.items.some((it) => it.t === 'dots')).toBe(false);
  });

  it('draws the keys of several RPCs in one multiread as one bar of all their keys', () => {
    const base = singleKeySnapshot();
    const rpcs = base.inflight.rpcs.concat([[801, 5, 1, 16, 0, 32.5], [802, 5, 1, 16, 0, 32.5], [803, 5, 1, 16, 0, 32.5]]);
    const sc = pipelineScene({ ...base, inflight: { ...base.inflight, rpcs } }, 700);
    expect(sc.items.filter((it) => it.t === 'rect' && it.tag === '×3')).toHaveLength(1);
  });

  it('draws single keys as dots, requests and replies apart', () => {
    const sc = pipelineScene(singleKeySnapshot(), 700);
    const dots = sc.items.filter((it) => it.t === 'dots');
    const count = (tag: string) => dots.filter((d) => d.tag === tag).reduce((n, d) => n + (d.t === 'dots' ? d.xy.length / 2 : 0), 0);
    expect(count('request')).toBe(6);  // client, 4 at the thread, 1 on the device
    expect(count('reply')).toBe(2);    // the interrupt and the wire back
  });

  it('counts each box, marks the unused queue on the direct path and each channel busy share', () => {
    const t = sceneTexts(pipelineScene(netSnapshot(), 700));
    expect(t).toContain('4 RPCs · 128 keys');
    expect(t).toContain('unused: direct');
    expect(t).toContain('ch0 28%');
    expect(t).toContain('25 clients');
    expect(t.at(-1)).toBe('8 RPCs in flight · path: direct');
    const q = sceneTexts(pipelineScene(netSnapshot({ path: 'queue', queue_depth: [3, 4, ...Array.from({ length: 23 }, () => 0)] }), 700));
    expect(q).toContain('7 keys waiting');
  });

  it('keeps every box inside a phone-wide canvas, with short labels', () => {
    const L = pipelineLayout(330);
    expect(L.narrow).toBe(true);
    for (const b of Object.values(L.boxes)) {
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.x + b.w).toBeLessThanOrEqual(330);
    }
    expect(sceneTexts(pipelineScene(netSnapshot(), 330))).toContain('NVM');
  });

  it('moves a mark across its box as it ages, and grows a bar with its width', () => {
    expect(progress('wire_in', 0)).toBe(0);
    expect(progress('wire_in', 40)).toBeCloseTo(1 - Math.exp(-1));
    expect(progress('wire_in', 400)).toBeGreaterThan(0.99);
    expect(bundleLength(2, 100)).toBeLessThan(bundleLength(32, 100));
    expect(bundleLength(256, 20)).toBe(20);
  });
});
