// The FAWN-DS index view from fixture cells: the grid, grouping for big indexes, and the last
// lookup's probe sequence drawn over it.
import { describe, expect, it } from 'vitest';
import { sceneText, sceneTexts } from '../../viz/canvasScene';
import { fixtureCells, fixtureLookup } from './fawndsFixtures';
import { PROBE_COLOURS, describeCell, gridColumns, indexCellPlan, indexLayout, indexScene } from './fawndsIndexView';

describe('index grid', () => {
  it('plans at most 4096 cells and lays them out in square-ish rows', () => {
    expect([16, 256, 1024, 4096].map(gridColumns)).toEqual([4, 16, 32, 64]);
    expect(gridColumns(2048)).toBe(64);
    expect(indexCellPlan(10)).toEqual({ count: 1024, group: 1 });
    expect(indexCellPlan(21)).toEqual({ count: 4096, group: 512 });
    const L = indexLayout(fixtureCells(10), 520);
    expect(L.cols).toBe(32);
    expect(L.gridX + L.cols * L.cell).toBeLessThanOrEqual(520);
    const c = L.centre(37);
    expect(L.cellAt(c.x, c.y)).toBe(37);
    expect(L.cellAt(0, 0)).toBe(-1);
  });

  it('describes a bucket: valid bit, fragment and offset', () => {
    const cells = fixtureCells(8);
    expect(describeCell(cells, 1)).toBe('bucket 1: empty (valid bit 0)');
    expect(describeCell(cells, 0)).toMatch(/^bucket 0: valid, key fragment 0x[0-9a-f]{4}, log offset 0$/);
    expect(describeCell(fixtureCells(12, 16), 3)).toBe('buckets 48–63: 7 of 16 valid');
  });

  it('draws the probe sequence of the last lookup over the buckets (snapshot)', async () => {
    const cells = fixtureCells(8);
    const lookup = fixtureLookup(2, 8);
    const { scene, layout } = indexScene(cells, { width: 520, store: 2, lookup });
    const probes = scene.items.filter((i) => i.t === 'rect' && i.tag?.startsWith('probe'));
    expect(probes.map((p) => (p.t === 'rect' ? p.stroke : ''))).toEqual([PROBE_COLOURS.empty, PROBE_COLOURS.other, PROBE_COLOURS['false-positive'], PROBE_COLOURS.hit]);
    const first = probes[0]!;
    const c = layout.centre(lookup.probes[0]![1]);
    expect(first.t === 'rect' ? first.x + first.w / 2 : NaN).toBeCloseTo(c.x, 6);
    expect(scene.items.filter((i) => i.t === 'path')).toHaveLength(1);
    const texts = sceneTexts(scene);
    expect(texts[0]).toBe('store 2: 2^8 buckets × 6 B = 1.5 KB of DRAM');
    expect(texts[1]).toBe(`256 buckets, ${cells.valid.reduce((a, b) => a + b, 0)} valid (${((cells.valid.reduce((a, b) => a + b, 0) / 256) * 100).toFixed(1)}% full)`);
    expect(texts).toEqual(expect.arrayContaining(['probe: fragment match, other key: false positive (1 wasted read)', 'bucket number: row-major, 16 buckets per row']));
    await expect(sceneText(scene)).toMatchFileSnapshot('./__snapshots__/fawndsIndexView.txt');
  });

  it('shades grouped cells by their share of valid buckets and ignores another store\'s lookup', () => {
    const cells = fixtureCells(14, 4);
    const { scene } = indexScene(cells, { width: 600, store: 0, lookup: fixtureLookup(1, 14) });
    expect(scene.items.filter((i) => i.t === 'rect' && i.tag?.startsWith('probe'))).toHaveLength(0);
    const fills = new Set(scene.items.flatMap((i) => (i.t === 'rect' && i.y >= 124 && i.fill ? [i.fill] : [])));
    expect(fills.size).toBeGreaterThan(1);
    expect(sceneTexts(scene)).toContain("valid (shade: share of the cell)");
  });
});
