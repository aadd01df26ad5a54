import { describe, expect, it } from 'vitest';
import { sceneTexts, type Scene, type SceneItem } from '../../viz/canvasScene';
import { ST } from './storesPalette';
import { emptyStoresSnapshot, storesSnapshot } from './storesFixtures';
import type { StoreStructure } from './storesTypes';
import { storeScene } from './structureScenes';

type Rect = Extract<SceneItem, { t: 'rect' }>;
const structureOf = (kind: string) => storesSnapshot().stores.find((s) => s.kind === kind)!.structure;
const tagged = (sc: Scene, tag: string) => sc.items.find((it): it is Rect => it.t === 'rect' && it.tag === tag);
/** The fill drawn right after a tagged track (its width over the track's: how full it is). */
function fillOf(sc: Scene, tag: string): number {
  const i = sc.items.findIndex((it) => it.t === 'rect' && it.tag === tag);
  const track = sc.items[i] as Rect;
  const next = sc.items[i + 1];
  return next && next.t === 'rect' && !next.tag && next.y === track.y && next.x === track.x ? next.w / track.w : 0;
}
function inside(sc: Scene) {
  for (const it of sc.items) {
    if (it.t === 'rect') expect(it.x + it.w, JSON.stringify(it)).toBeLessThanOrEqual(sc.width + 0.01);
    if (it.t === 'text' && (it.align ?? 'left') === 'left') expect(it.x).toBeGreaterThanOrEqual(0);
  }
}

describe('storeScene', () => {
  it('CONA: the buffers filled against B, a row per level, the shadow dashed orange and half merged', () => {
    const sc = storeScene(structureOf('cona'), 300);
    expect(fillOf(sc, 'buffer-active')).toBeCloseTo(120 / 297, 3);
    expect(fillOf(sc, 'buffer-frozen')).toBeCloseTo(1, 6);
    expect(sceneTexts(sc)).toEqual(expect.arrayContaining(['buffers', 'L1', 'L2', 'L3', 'L4']));
    // The merging level's row is marked at its left edge.
    expect(sc.items.filter((it) => it.t === 'rect' && it.tag === 'work-mark')).toHaveLength(1);
    const shadow = tagged(sc, 'L2-shadow')!;
    expect(shadow.stroke).toBe(ST.work);
    expect(shadow.dash).toBeDefined();
    expect(fillOf(sc, 'L2-shadow')).toBeCloseTo(300 / 594, 3);
    // Deeper levels' cells are wider (capacity doubles per level).
    expect(tagged(sc, 'L4-0')!.w).toBeGreaterThan(tagged(sc, 'L1-0')!.w);
    inside(sc);
  });

  it('SILT: the log against its capacity, a box per hash store, the sorted store\'s share, the conversion outlined', () => {
    const sc = storeScene(structureOf('silt'), 300);
    expect(fillOf(sc, 'log')).toBeCloseTo(700 / 1024, 3);
    expect(tagged(sc, 'log')!.stroke).toBe(ST.work);
    expect([0, 1, 2].map((i) => tagged(sc, `hash-${i}`))).not.toContain(undefined);
    expect(fillOf(sc, 'sorted')).toBeCloseTo(4100 / (4100 + 700 + 952 + 951 + 950), 3);
    expect(sceneTexts(sc)).toEqual(expect.arrayContaining(['log', 'hash', 'sorted', '4100 entries']));
    inside(sc);
  });

  it('SILT: a frozen LogStore beside the active one while it converts', () => {
    const st = { ...structureOf('silt'), frozen_log: { entries: 1000, capacity: 1024 } } as StoreStructure;
    const sc = storeScene(st, 300);
    expect(tagged(sc, 'frozen-log')!.stroke).toBe(ST.work);
    expect(tagged(sc, 'log')!.stroke).not.toBe(ST.work);
    expect(tagged(sc, 'log')!.x + tagged(sc, 'log')!.w).toBeLessThan(tagged(sc, 'frozen-log')!.x);
    expect(sceneTexts(sc)).toContain('frozen');
    expect(tagged(storeScene({ ...st, frozen_log: null } as StoreStructure, 300), 'frozen-log')).toBeUndefined();
    inside(sc);
  });

  it('the LSM: the memtable and the immutable one, L1 past its target in vermilion, L0 as files, the compaction outlined', () => {
    const sc = storeScene(structureOf('lsm'), 300);
    expect(fillOf(sc, 'memtable')).toBeCloseTo(180_000 / 262_144, 3);
    expect(tagged(sc, 'immutable')).toBeDefined();
    expect(tagged(sc, 'L1-over')!.fill).toBe(ST.over);
    expect(tagged(sc, 'L2-over')).toBeUndefined();
    expect(tagged(sc, 'L1')!.stroke).toBe(ST.work);
    expect(tagged(sc, 'L2')!.stroke).toBe(ST.work);
    expect(tagged(sc, 'L0')!.stroke).not.toBe(ST.work);
    expect(sceneTexts(sc)).toEqual(expect.arrayContaining(['5 files · 1.1 MB', '4 files · 1.24 MB']));
    inside(sc);
  });

  it('FAWN-DS: live bytes then garbage against the log, the index\'s buckets', () => {
    const sc = storeScene(structureOf('fawnds'), 300);
    expect(fillOf(sc, 'log')).toBeCloseTo((2_100_000 - 450_000) / 8_388_608, 3);
    expect(tagged(sc, 'garbage')!.w / tagged(sc, 'log')!.w).toBeCloseTo(450_000 / 8_388_608, 3);
    expect(fillOf(sc, 'index')).toBeCloseTo(6500 / 16384, 3);
    inside(sc);
  });

  it('the B+tree: a row per level from the root to the leaves, widening; the pool\'s dirty pages', () => {
    const sc = storeScene(structureOf('btree'), 300);
    // Height 3: the level under the root holds the other internal pages (4 − 1).
    expect(sceneTexts(sc)).toEqual(expect.arrayContaining(['root', 'lvl 1', '3', 'leaves', '212', '64 pages, 19 dirty']));
    const tall = sceneTexts(storeScene({ ...structureOf('btree'), height: 4, internals: 1 + 8 + 60, leaves: 500 } as StoreStructure, 300));
    expect(tall).toEqual(expect.arrayContaining(['~8', '~60']));
    expect(tagged(sc, 'leaves')!.w).toBeGreaterThan(tagged(sc, 'level-1')!.w);
    expect(tagged(sc, 'level-1')!.w).toBeGreaterThan(tagged(sc, 'level-0')!.w);
    expect(fillOf(sc, 'pool')).toBeCloseTo(19 / 64, 3);
    inside(sc);
  });

  it('empty stores draw, say so, and stay small', () => {
    for (const s of emptyStoresSnapshot().stores) {
      const sc = storeScene(s.structure, 260);
      expect(sc.height).toBeLessThan(80);
      inside(sc);
    }
    expect(sceneTexts(storeScene(emptyStoresSnapshot().stores[0]!.structure, 260))).toContain('no levels yet');
  });

  it('a structure with fields missing or of a type it does not know still draws', () => {
    for (const st of [{ type: 'cona' }, { type: 'silt' }, { type: 'lsm' }, { type: 'fawnds' }, { type: 'btree' }] as StoreStructure[]) {
      expect(storeScene(st, 200).items.length, st.type).toBeGreaterThan(0);
    }
    expect(sceneTexts(storeScene({ type: 'skiplist', nodes: 3 }, 300))[0]).toContain('no drawing for a “skiplist” store');
  });

  it('fits a phone card and a narrow desktop card', () => {
    for (const s of storesSnapshot().stores) for (const w of [180, 230, 330]) inside(storeScene(s.structure, w));
  });
});
