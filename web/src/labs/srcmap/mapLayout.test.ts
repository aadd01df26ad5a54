import { describe, expect, it } from 'vitest';
import { cachingSnapshot, srcmapSnapshot } from './srcmapFixtures';
import { flowWidth, mapLayout, MAX_FLOW_W, nextNode, touches } from './mapLayout';

describe('mapLayout', () => {
  it('volumes on the left, disks on the right, a row each, inside the width', () => {
    for (const width of [340, 640, 1000]) {
      const L = mapLayout(srcmapSnapshot(), width);
      expect(L.volumes).toHaveLength(8);
      expect(L.disks).toHaveLength(8);
      for (const n of [...L.volumes, ...L.disks]) {
        expect(n.x).toBeGreaterThanOrEqual(0);
        expect(n.x + n.w).toBeLessThanOrEqual(L.width);
        expect(n.y + n.h).toBeLessThanOrEqual(L.height);
      }
      // The columns do not overlap: room for the edges between them.
      expect(L.disks[0]!.x - (L.volumes[0]!.x + L.volumes[0]!.w)).toBeGreaterThan(40);
      expect(L.narrow).toBe(width < 480);
    }
  });

  it('an edge per relation, the strongest kind: served thick, copies thin, flow adds width', () => {
    const L = mapLayout(srcmapSnapshot(), 640);
    const e = (v: number, d: number) => L.edges.find((x) => x.volume === v && x.disk === d);
    // home-1: primary D0 (in standby), replica on D3 which serves it with 7.9 IOPS.
    expect(e(0, 0)!.kind).toBe('primary');
    expect(e(0, 0)!.width).toBe(1);
    expect(e(0, 3)!.kind).toBe('served');
    expect(e(0, 3)!.iops).toBe(7.9);
    // online served at home with the busiest flow (19.8): the widest edge.
    expect(e(1, 1)!.kind).toBe('served');
    expect(e(1, 1)!.width).toBe(3 + MAX_FLOW_W);
    expect(Math.max(...L.edges.map((x) => x.width))).toBe(3 + MAX_FLOW_W);
    // online's replica on D3, not served there: thin.
    expect(e(1, 3)!.kind).toBe('replica');
    expect(e(1, 3)!.width).toBe(1);
    // svn-wiki: served by its primary D5 (spinning up) and 0.7 IOPS of flow to D3's replica.
    expect(e(5, 3)!.kind).toBe('replica');
    expect(e(5, 3)!.width).toBeGreaterThan(1);
    // Thin edges first, served ones last (drawn on top).
    const kinds = L.edges.map((x) => x.kind);
    expect(kinds.lastIndexOf('replica')).toBeLessThan(kinds.indexOf('served'));
  });

  it('cache disks under their own heading, with flow edges to them', () => {
    const L = mapLayout(cachingSnapshot(), 640);
    expect(L.disks).toHaveLength(10);
    expect(L.cacheHeadY).not.toBeNull();
    expect(L.disks[8]!.y).toBeGreaterThan(L.disks[7]!.y + 42);
    expect(L.edges.find((x) => x.volume === 1 && x.disk === 9)!.kind).toBe('flow');
    expect(mapLayout(srcmapSnapshot(), 640).cacheHeadY).toBeNull();
  });

  it('flow width on a square-root scale', () => {
    expect(flowWidth(0, 10)).toBe(0);
    expect(flowWidth(10, 10)).toBe(MAX_FLOW_W);
    expect(flowWidth(2.5, 10)).toBeCloseTo(MAX_FLOW_W / 2);
    expect(flowWidth(5, 0)).toBe(0);
  });

  it('the arrow keys move within a column and across', () => {
    const L = mapLayout(cachingSnapshot(), 640);
    expect(nextNode(L, 'v0', 'ArrowDown')).toBe('v1');
    expect(nextNode(L, 'v0', 'ArrowUp')).toBe('v0');
    expect(nextNode(L, 'v7', 'End')).toBe('v7');
    expect(nextNode(L, 'v3', 'ArrowRight')).toBe('d3');
    expect(nextNode(L, 'd9', 'ArrowLeft')).toBe('v7');
    expect(nextNode(L, 'd2', 'Home')).toBe('d0');
    expect(nextNode(L, 'd2', 'End')).toBe('d9');
    expect(nextNode(L, 'd2', 'x')).toBeNull();
    expect(touches(L.edges[0]!, `v${L.edges[0]!.volume}`)).toBe(true);
    expect(touches(L.edges[0]!, null)).toBe(false);
  });
});
