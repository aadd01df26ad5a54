import { describe, expect, it } from 'vitest';
import { sceneTexts } from '../../viz/canvasScene';
import { addSample, emptyHistory, MIN_STEP_NS, sampleLine, WINDOW_NS } from './iopsHistory';
import { iopsScene, sampleAtX } from './iopsScene';
import { storesSnapshot } from './storesFixtures';
import { storeStyle } from './storesPalette';

const at = (t_ns: number, scale = 1) => {
  const s = storesSnapshot({ t_ns });
  return { ...s, stores: s.stores.map((r) => ({ ...r, write_iops: r.write_iops * scale })) };
};

describe('the IOPS history', () => {
  it('keeps a sample per step, the newest always the snapshot\'s, within the window', () => {
    let h = emptyHistory();
    for (let i = 0; i <= 100; i++) h = addSample(h, at(i * 5e6));
    // 5 ms apart, kept at least MIN_STEP_NS apart (the newest replaced until the step passes).
    for (let i = 1; i < h.t.length - 1; i++) expect(h.t[i]! - h.t[i - 1]!).toBeGreaterThanOrEqual(MIN_STEP_NS);
    expect(h.t[h.t.length - 1]).toBe(500e6);
    expect(h.kinds).toEqual(['cona', 'cona-1t', 'silt', 'lsm', 'fawnds', 'btree']);
    expect(h.write[0]![h.t.length - 1]).toBe(151_000);
    h = addSample(h, at(500e6 + 2 * WINDOW_NS));
    expect(h.t.length).toBe(1);
  });

  it('starts over for a new session: time going back, or other stores', () => {
    let h = addSample(addSample(emptyHistory(), at(1e9)), at(2e9));
    expect(h.t).toEqual([1e9, 2e9]);
    h = addSample(h, at(0.5e9));
    expect(h.t).toEqual([0.5e9]);
    const fewer = storesSnapshot({ t_ns: 1e9 });
    fewer.stores = fewer.stores.slice(0, 2);
    h = addSample(h, fewer);
    expect(h.kinds).toEqual(['cona', 'cona-1t']);
    expect(h.t).toEqual([1e9]);
  });

  it('reads a moment out in words', () => {
    const h = addSample(emptyHistory(), at(1e9));
    expect(sampleLine(h, 0)).toMatch(/^At 1 s \(IOPS\): CONA 151k write, 19.8k read; CONA \(one thread\) 88k write/);
    expect(sampleLine(h, 0)).toContain('B+tree 9100 write, 12k read, 1840 waiting.');
    expect(sampleLine(h, 3)).toBe('');
  });
});

describe('the IOPS chart', () => {
  it('draws a line per store in its colour and dash, with labelled axes and units', () => {
    let h = emptyHistory();
    for (let i = 1; i <= 20; i++) h = addSample(h, at(i * 100e6, i / 20));
    const sc = iopsScene(h, 700, 5);
    const paths = sc.items.filter((it) => it.t === 'path');
    // Write IOPS, read IOPS, and the queues (SILT's and the B+tree's: the others have none, drawn flat at 0).
    expect(paths).toHaveLength(18);
    expect(paths.map((p) => p.stroke).slice(0, 6)).toEqual(h.kinds.map((k) => storeStyle(k).colour));
    expect(sceneTexts(sc)).toEqual(expect.arrayContaining(['write IOPS (ops/s of time spent writing)', 'read IOPS (ops/s of time spent reading)',
      'operations waiting (a store behind the rate)', 'virtual time (s)']));
    // The cursor: a dot per store on each plot.
    expect(sc.items.filter((it) => it.t === 'circle')).toHaveLength(18);
    for (const it of sc.items) if (it.t === 'path') for (const [x] of it.points) expect(x).toBeLessThanOrEqual(700);
    expect(sampleAtX(h, 700, 52)).toBe(0);
    expect(sampleAtX(h, 700, 700 - 12)).toBe(19);
    expect(sampleAtX(h, 700, 10)).toBe(-1);
  });

  it('says when there is nothing to draw, short on a phone', () => {
    expect(sceneTexts(iopsScene(emptyHistory(), 330))).toEqual(expect.arrayContaining(['write IOPS (ops/s)', 'no writes yet', 'no reads yet', 'waiting (ops)', 'no store behind the rate']));
  });
});
