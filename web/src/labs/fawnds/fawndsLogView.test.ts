// The FAWN-DS log view from fixture logs: cells for a handful of records, per-pixel shares for
// a million, the axis, legend, markers, and the keyboard readout.
import { describe, expect, it } from 'vitest';
import { sceneText, sceneTexts, type Scene } from '../../viz/canvasScene';
import { fmtBytes } from '../../viz/format';
import { fixtureLog, patternLog } from './fawndsFixtures';
import {
  LOG_COLOURS,
  byteTicks,
  describeRecord,
  fitViewport,
  logScene,
  panViewport,
  recordAt,
  recordSize,
  zoomViewport,
  type LogRow,
} from './fawndsLogView';

const rects = (s: Scene, fill?: string) => s.items.filter((i) => i.t === 'rect' && (fill === undefined || i.fill === fill));

function row(id: number, log: LogRow['log'], extra: Partial<LogRow> = {}): LogRow {
  return { id, range: '(0000…, 4000…]', role: 'serving', capacity: 16 * 1024 * 1024, log, ...extra };
}

describe('byte axis', () => {
  it('formats bytes in binary units and picks round ticks', () => {
    expect([0, 512, 2048, 1536 * 1024, 3 * 1024 ** 3].map(fmtBytes)).toEqual(['0', '512 B', '2 KB', '1.5 MB', '3 GB']);
    expect(byteTicks(0, 1000)).toEqual([0, 200, 400, 600, 800, 1000]);
    expect(byteTicks(0, 100 * 1024).map(fmtBytes)).toEqual(['0', '20 KB', '40 KB', '60 KB', '80 KB', '100 KB']);
    expect(byteTicks(0, 49e6).length).toBeGreaterThanOrEqual(4);
    expect(byteTicks(0, 49e6).length).toBeLessThanOrEqual(11);
  });
});

describe('records', () => {
  const log = fixtureLog([{ size: 38, state: 'orphaned' }, { size: 39, state: 'live' }, { size: 33, state: 'deleted', del: true }]);
  it('knows sizes, finds the record at an offset and describes it', () => {
    expect([0, 1, 2].map((i) => recordSize(log, i))).toEqual([38, 39, 33]);
    expect([0, 37, 38, 109, 110].map((o) => recordAt(log, o))).toEqual([0, 0, 1, 2, -1]);
    expect(describeRecord(row(2, log), 2)).toMatch(/^store 2, record 3 of 3: delete of key [0-9a-f]{8}… at log offset 77 \(33 bytes\), deleted$/);
  });
});

describe('logScene', () => {
  it('draws a handful of records as cells, with a legend and a labelled axis (snapshot)', async () => {
    const a = fixtureLog([{ size: 38, state: 'live' }, { size: 39, state: 'live' }, { size: 40, state: 'live' }]);
    const b = fixtureLog([{ size: 38, state: 'orphaned' }, { size: 38, state: 'live' }, { size: 33, state: 'deleted', del: true }, { size: 41, state: 'live', replayed: true }]);
    const rows = [row(0, a), row(1, b, { range: '(4000…, 8000…]' })];
    const { scene } = logScene(rows, fitViewport(rows), { width: 900, crashed: false });
    expect(rects(scene, LOG_COLOURS.live)).toHaveLength(1 + 3 + 2);
    expect(rects(scene, LOG_COLOURS.orphaned)).toHaveLength(1 + 1);
    const texts = sceneTexts(scene);
    expect(texts).toEqual(expect.arrayContaining(['live 5', 'orphaned 1', 'deleted 1', 'out of range 0', 'lost 0', 'store 0', 'store 1',
      '3 records', '4 records', 'log offset (bytes; 1 KB = 1024 bytes)', 'delete record', 'replayed by recovery']));
    expect(scene.items.some((i) => i.t === 'line' && i.stroke === '#1f2328' && i.lw === 1.5 && i.y2 > 46)).toBe(true);
    await expect(sceneText(scene)).toMatchFileSnapshot('./__snapshots__/fawndsLogView.txt');
  });

  it('writes each key\'s first hex digits when cells are wide enough', () => {
    const log = fixtureLog([{ size: 100, state: 'live' }, { size: 100, state: 'live' }]);
    const { scene } = logScene([row(0, log)], { start: 0, end: 220 }, { width: 900, crashed: false });
    const keyTexts = sceneTexts(scene).filter((t) => /^[0-9a-f]{8}…$/.test(t));
    expect(keyTexts).toEqual([`${log.keys[0]!.toString(16).padStart(8, '0')}…`, `${log.keys[1]!.toString(16).padStart(8, '0')}…`]);
  });

  it('writes the key typed for a record where the page knows it, cut to its cell', () => {
    const log = fixtureLog([{ size: 100, state: 'live' }, { size: 100, state: 'live' }]);
    const names = new Map([[log.keys[0]!, 'apple'], [log.keys[1]!, 'a-very-long-key-name-indeed']]);
    const texts = sceneTexts(logScene([row(0, log, { names })], { start: 0, end: 220 }, { width: 900, crashed: false }).scene);
    expect(texts).toContain('“apple”');
    expect(texts).toContain('“a-very-long-key-name-indeed”');
    // Narrower cells (about 100 px): the name is cut to what fits, with an ellipsis.
    const narrow = sceneTexts(logScene([row(0, log, { names })], { start: 0, end: 700 }, { width: 900, crashed: false }).scene);
    expect(narrow.some((t) => /^“a-very-lon?g?.*…$/.test(t) && t.length < 16)).toBe(true);
    expect(describeRecord(row(0, log, { names }), 0)).toMatch(/: put of key “apple” at log offset 0/);
  });

  it('draws a million records as per-pixel shares, bounded by the width', () => {
    const log = patternLog(1_000_000);
    const rows = [row(0, log, { capacity: 64 * 1024 * 1024 })];
    const { scene, layout } = logScene(rows, fitViewport(rows), { width: 1000, crashed: false });
    const data = rects(scene).filter((r) => r.t === 'rect' && r.y >= layout.rowY(0) + 11.99 && r.y < layout.rowY(0) + 36 && r.fill !== '#eef0f3');
    expect(data.length).toBeGreaterThan(50);
    expect(data.length).toBeLessThan(5 * layout.plotW);
    // Every pixel column up to the log's end is filled to the full height.
    const endX = layout.x(log.logEnd);
    const byX = new Map<number, number>();
    for (const r of data) if (r.t === 'rect') for (let x = Math.round(r.x); x < Math.round(r.x + r.w); x++) byX.set(x, (byX.get(x) ?? 0) + r.h);
    for (let x = Math.ceil(layout.plotX); x < Math.floor(endX) - 1; x++) expect(byX.get(x), `column ${x}`).toBeCloseTo(24, 0);
    // Orphaned records grow towards the end of this log.
    const orphan = (x0: number, x1: number) => data.filter((r) => r.t === 'rect' && r.fill === LOG_COLOURS.orphaned && r.x >= x0 && r.x < x1)
      .reduce((s, r) => s + (r.t === 'rect' ? r.w * r.h : 0), 0);
    expect(orphan(endX - 100, endX)).toBeGreaterThan(orphan(layout.plotX, layout.plotX + 100));
  });

  it('shows the scan position, the lock, the lookup\'s reads and the cursor', () => {
    const log = fixtureLog(Array.from({ length: 10 }, () => ({ size: 49, state: 'live' as const })));
    const rows = [row(0, log, { role: 'source', scan: 196, locked: true, reads: [{ offset: 98, falsePositive: true }, { offset: 245, falsePositive: false }] })];
    const { scene, layout } = logScene(rows, fitViewport(rows), { width: 800, crashed: false, cursor: { row: 0, record: 3 } });
    expect(sceneTexts(scene)).toEqual(expect.arrayContaining(['scan', 'LOCKED', '10 records · being scanned']));
    const scan = scene.items.find((i) => i.t === 'line' && i.dash);
    expect(scan && scan.t === 'line' ? scan.x1 : NaN).toBeCloseTo(layout.x(196), 6);
    const marks = scene.items.filter((i) => i.t === 'path' && i.points.length === 4 && i.points[0]![1] > 46);
    expect(marks.map((m) => (m.t === 'path' ? m.stroke : ''))).toEqual(['#D55E00', '#009E73']);
    const cur = scene.items.find((i) => i.t === 'rect' && i.tag === 'cursor');
    expect(cur && cur.t === 'rect' ? cur.x + 1.5 : NaN).toBeCloseTo(layout.x(147), 6);
  });

  it('after a crash, marks lost records and labels the stores crashed', () => {
    const log = fixtureLog([{ size: 49, state: 'live' }, { size: 49, state: 'lost' }]);
    const { scene } = logScene([row(0, log, { role: 'crashed' })], { start: 0, end: 120 }, { width: 800, crashed: true });
    expect(rects(scene, LOG_COLOURS.lost)).toHaveLength(1 + 1);
    expect(sceneTexts(scene)).toContain('2 records · crashed');
  });
});

describe('viewport', () => {
  it('fits, zooms around a point and pans within the logs', () => {
    const rows = [row(0, fixtureLog([{ size: 5000, state: 'live' }]))];
    expect(fitViewport(rows)).toEqual({ start: 0, end: 5200 });
    expect(fitViewport([row(0, null)])).toEqual({ start: 0, end: 267 });
    const z = zoomViewport({ start: 0, end: 1000 }, 0.5, 500, 10000);
    expect(z).toEqual({ start: 250, end: 750 });
    expect(zoomViewport({ start: 0, end: 1000 }, 0.01, 0, 10000)).toEqual({ start: 0, end: 64 });
    expect(zoomViewport({ start: 0, end: 1000 }, 100, 500, 3000)).toEqual({ start: 0, end: 3000 });
    expect(panViewport({ start: 0, end: 1000 }, 0.5, 1200)).toEqual({ start: 200, end: 1200 });
    expect(panViewport({ start: 100, end: 1100 }, -1, 5000)).toEqual({ start: 0, end: 1000 });
  });
});
