import { describe, expect, it } from 'vitest';
import { sceneText, sceneTexts, type SceneItem } from '../../viz/canvasScene';
import { CONA, STEP_STYLES } from './conaPalette';
import { conaSnapshot, emptySnapshot, waitingSnapshot } from './conaFixtures';
import { cellWidth, lookupCells, lookupStale, recentFlips, slotAt, stepPoint, stepStyle, structureLayout, structureScene } from './structureScene';

const rect = (items: SceneItem[], tag: string) => items.find((it) => it.t === 'rect' && it.tag === tag) as Extract<SceneItem, { t: 'rect' }> | undefined;

describe('structureLayout', () => {
  it('gives each level three slots in columns, wider down the levels on a log scale', () => {
    const l = structureLayout(conaSnapshot(), 800);
    expect(l.slots).toHaveLength(12);
    const w = [1, 2, 3, 4].map((lv) => l.slots.find((s) => s.level === lv && s.slot === 0)!.w);
    for (let i = 1; i < w.length; i++) expect(w[i]).toBeGreaterThan(w[i - 1]!);
    // Equal steps: a level holds twice the one above (log scale).
    expect(w[2]! - w[1]!).toBeCloseTo(w[1]! - w[0]!, 6);
    // The shadow column is to the right of both visible slots, at every level.
    for (let lv = 1; lv <= 4; lv++) {
      const row = l.slots.filter((s) => s.level === lv);
      expect(row[2]!.x).toBeGreaterThan(row[1]!.x + row[1]!.w);
      expect(row[1]!.x).toBeGreaterThan(row[0]!.x + row[0]!.w);
    }
    // Nothing past the right edge.
    for (const s of l.slots) expect(s.x + s.w).toBeLessThanOrEqual(800 - 7.9);
  });

  it('fits a phone: every slot inside 300 px, the first level still wide enough to see', () => {
    const l = structureLayout(conaSnapshot(), 300);
    for (const s of l.slots) expect(s.x + s.w).toBeLessThanOrEqual(300);
    expect(cellWidth(1, 4, 80)).toBeGreaterThanOrEqual(24);
  });

  it('fills each buffer bar as the buffer holds entries', () => {
    const l = structureLayout(conaSnapshot(), 800);
    expect(l.buffers[0]!.fillW / l.buffers[0]!.w).toBeCloseTo(120 / 297, 6);
    expect(l.buffers[1]!.fillW).toBeCloseTo(l.buffers[1]!.w, 6);
  });

  it('finds the slot under the pointer', () => {
    const l = structureLayout(conaSnapshot(), 800);
    const s = l.slots.find((x) => x.level === 3 && x.slot === 0)!;
    expect(slotAt(l, s.x + 2, s.y + 2)?.cell?.entries).toBe(1188);
    expect(slotAt(l, 1, 1)).toBeNull();
  });
});

describe('structureScene', () => {
  it('names the buffers, their fill and the levels', () => {
    const t = sceneTexts(structureScene(conaSnapshot(), 800, { recentNs: 0 }));
    expect(t).toContain('Insertion buffers: B = 297 entries each, searched first');
    expect(t).toContain('active (takes the puts): 120 / 297 (40%)');
    expect(t).toContain('frozen (full: induced into level 1): 297 / 297 (100%)');
    expect(t).toContain('Levels on flash (4): newest level 1 at the top');
    expect(t).toEqual(expect.arrayContaining(['L1', 'L2', 'L3', 'L4', 'slot 0', 'slot 1', 'shadow']));
    expect(t.some((x) => x.includes('waiting'))).toBe(false);
  });

  it('draws the buffers\' sampled keys as ticks in key order inside the filled part', () => {
    const sn = conaSnapshot();
    const sc = structureScene(sn, 800, { recentNs: 0 });
    const ticks = sc.items.find((it) => it.t === 'segments' && it.tag === 'keys-active') as Extract<SceneItem, { t: 'segments' }>;
    expect(ticks.xy.length / 4).toBe(sn.buffers[0]!.keys.length);
    const fill = rect(sc.items, 'fill-active')!;
    const xs = ticks.xy.filter((_, i) => i % 4 === 0);
    for (let i = 1; i < xs.length; i++) expect(xs[i]).toBeGreaterThanOrEqual(xs[i - 1]!);
    expect(Math.max(...xs)).toBeLessThanOrEqual(fill.x + fill.w);
  });

  it('dashes and labels a frozen buffer that waits for a level-1 slot', () => {
    const sc = structureScene(waitingSnapshot(), 800, { recentNs: 0 });
    expect(sceneTexts(sc)).toContain('frozen, waiting for a level-1 slot: 297 / 297 (100%)');
    const w = rect(sc.items, 'waiting')!;
    expect(w.stroke).toBe(CONA.waiting);
    expect(w.dash).toBeDefined();
  });

  it('fills a shadow by its merge progress, dashed, with the arrow from the merging level', () => {
    const sc = structureScene(conaSnapshot(), 800, { recentNs: 0 });
    const cell = rect(sc.items, 'cell-L2-2')!;
    const fill = rect(sc.items, 'fill-L2-2')!;
    expect(cell.dash).toBeDefined();
    expect(fill.fill).toBe(CONA.shadow);
    expect(fill.w / cell.w).toBeCloseTo(300 / 594, 6);
    expect(sceneTexts(sc)).toContain('51%');
    const arrows = sc.items.filter((it) => it.t === 'path' && it.stroke === CONA.shadow);
    expect(arrows.length).toBeGreaterThanOrEqual(2);
    // A done shadow says so; no merge, no arrow.
    const done = structureScene(waitingSnapshot(), 800, { recentNs: 0 });
    expect(sceneTexts(done)).toContain('done');
    expect(done.items.filter((it) => it.t === 'path' && it.stroke === CONA.shadow)).toHaveLength(0);
  });

  it('outlines a level that flipped within the recent window, and only then', () => {
    const sn = waitingSnapshot();
    expect([...recentFlips(sn, 2e6).keys()]).toEqual([3]);
    expect(recentFlips(sn, 2e6).get(3)).toBeCloseTo(0.5, 6);  // 1 ms ago of a 2 ms window
    const sc = structureScene(sn, 800, { recentNs: 2e6 });
    expect(sceneTexts(sc)).toContain('flipped');
    expect(rect(sc.items, 'cell-L3-0')!.stroke).toBe(CONA.flip);
    expect(rect(sc.items, 'cell-L3-0')!.lw).toBeCloseTo(3.5, 6);
    expect(rect(structureScene(sn, 800, { recentNs: 1.1e6 }).items, 'cell-L3-0')!.lw).toBeLessThan(2.5);
    expect(sceneTexts(structureScene(sn, 800, { recentNs: 1e5 }))).not.toContain('flipped');
  });

  it('shortens its labels on a phone, so none runs past the edge', () => {
    for (const sn of [conaSnapshot(), waitingSnapshot(), emptySnapshot(), { ...conaSnapshot(), crashed: true }]) {
      const sc = structureScene(sn, 300, { recentNs: 2e6 });
      for (const it of sc.items) {
        if (it.t !== 'text') continue;
        const w = it.text.length * 6.4;
        const left = it.align === 'center' ? it.x - w / 2 : it.align === 'right' ? it.x - w : it.x;
        expect(left, it.text).toBeGreaterThanOrEqual(0);
        expect(left + w, it.text).toBeLessThanOrEqual(300 + 4);
      }
    }
  });

  it('draws the last lookup: a numbered marker per step at its rank, joined in order, the hit green', () => {
    const sn = conaSnapshot();
    const sc = structureScene(sn, 800, { recentNs: 0 });
    const marks = sc.items.filter((it) => it.t === 'circle');
    expect(marks).toHaveLength(6);
    expect(sceneTexts(sc)).toEqual(expect.arrayContaining(['1', '2', '3', '4', '5', '6']));
    const last = marks[5] as Extract<SceneItem, { t: 'circle' }>;
    expect(last.fill).toBe(STEP_STYLES.found.fill);
    expect(stepStyle(sn.last_lookup!.steps[2]!)).toBe(STEP_STYLES.passed);
    // The hit sits inside its cell (L3 slot 0), at its rank: 395 of 1188, about a third along.
    const l = structureLayout(sn, 800);
    const box = l.slots.find((s) => s.level === 3 && s.slot === 0)!;
    const [x, y] = stepPoint(l, sn, sn.last_lookup!.steps[5]!)!;
    expect((x - box.x) / box.w).toBeCloseTo(395.5 / 1188, 2);
    expect(y).toBeCloseTo(box.y + box.h / 2, 6);
    expect(sc.items.some((it) => it.t === 'path' && it.stroke === CONA.path && it.points.length === 6)).toBe(true);
    // The read says where it was served from.
    expect(sceneTexts(sc)).toContain('read: flash');
    const hit = { ...sn, last_lookup: { ...sn.last_lookup!, steps: sn.last_lookup!.steps.map((s) => (s.flash_read ? { ...s, cache_hit: true } : s)) } };
    expect(sceneTexts(structureScene(hit, 800, { recentNs: 0 }))).toContain('read: page cache');
  });

  it('colours a false positive and a read that missed apart from a hit', () => {
    const base = { level: 2, slot: 0, rank: 3, trie_symbols: 5, fragment: 1 as const, flash_read: true, cache_hit: true };
    expect(stepStyle({ ...base, outcome: 2 })).toBe(STEP_STYLES.falsePositive);
    expect(stepStyle({ ...base, fragment: -1, outcome: 0 })).toBe(STEP_STYLES.readMiss);
    expect(stepStyle({ ...base, outcome: 3 })).toBe(STEP_STYLES.deleted);
  });

  it('an empty store: empty bars and a note, no cells', () => {
    const sc = structureScene(emptySnapshot(), 390, { recentNs: 0 });
    expect(sceneTexts(sc)).toContain('Levels: none yet (an induce makes L1)');
    expect(sceneTexts(structureScene(emptySnapshot(), 800, { recentNs: 0 }))).toContain('Levels on flash: none yet (the first induce makes level 1)');
    expect(sc.items.filter((it) => it.t === 'rect' && it.tag?.startsWith('cell-'))).toHaveLength(0);
    expect(sc.height).toBeGreaterThan(100);
  });

  it('says so over the structure after a crash', () => {
    const t = sceneTexts(structureScene({ ...conaSnapshot(), crashed: true }, 800, { recentNs: 0 }));
    expect(t.some((x) => x.startsWith('Crashed'))).toBe(true);
  });
});

describe('the picked slot', () => {
  it('is ringed', () => {
    const sc = structureScene(conaSnapshot(), 800, { recentNs: 0, selected: { level: 2, slot: 2 } });
    const ring = rect(sc.items, 'selected')!;
    const cell = rect(sc.items, 'cell-L2-2')!;
    expect(ring.x).toBeLessThan(cell.x);
    expect(ring.w).toBeGreaterThan(cell.w);
  });
});

describe('a lookup on a structure that moved on', () => {
  it('is stale once a cell it passed is replaced, and then drawn faded and dashed', () => {
    const sn = conaSnapshot();
    const cells = lookupCells(sn);
    expect(cells).toEqual([-1, -1, 42, 41, 30, 20]);
    expect(lookupStale(sn, cells)).toBe(false);
    const flipped = conaSnapshot({ cells: sn.cells.filter((c) => c.level !== 1) });
    expect(lookupStale(flipped, cells)).toBe(true);
    const sc = structureScene(flipped, 800, { recentNs: 0, staleLookup: true });
    const path = sc.items.find((it) => it.t === 'path' && it.points.length === 6) as Extract<SceneItem, { t: 'path' }>;
    expect(path.dash).toBeDefined();
    expect(path.stroke).toBe(CONA.empty);
    expect(sc.items.filter((it) => it.t === 'circle' && it.fill === STEP_STYLES.found.fill)).toHaveLength(0);
  });

  it('a read of another key where there are no fragments is the last level\'s read, not a false positive', () => {
    const base = { level: 4, slot: 0, rank: 3, trie_symbols: 5, flash_read: true, cache_hit: false, outcome: 2 as const };
    expect(stepStyle({ ...base, fragment: -1 })).toBe(STEP_STYLES.readMiss);
    expect(stepStyle({ ...base, fragment: 1 })).toBe(STEP_STYLES.falsePositive);
  });
});

describe('the lookup in the buffers', () => {
  it('sits at the key\'s prefix on the key ticks\' axis when the session gives it', () => {
    const sn = conaSnapshot();
    const l = structureLayout(sn, 800);
    const withPrefix = { ...sn, last_lookup: { ...sn.last_lookup!, prefix: 32768 } };
    const [x] = stepPoint(l, withPrefix, sn.last_lookup!.steps[1]!)!;
    expect(x).toBeCloseTo(l.buffers[1]!.x + l.buffers[1]!.fillW / 2, 6);
  });
});

describe('the scene as text', () => {
  it('matches its snapshot (the mid-merge store with the traced lookup, at 600 px)', () => {
    expect(sceneText(structureScene(conaSnapshot(), 600, { recentNs: 2e8, selected: { level: 3, slot: 0 } }))).toMatchSnapshot();
  });
});
