// The view's pure parts on the real `srcmap` session (the browser build of the core, in Node):
// the snapshot has the pinned fields the page reads, its states are ones the page draws, the
// map lays it out, the "power" view reads as a series, and the operations answer as the view
// words them (locate; a malformed trace refused by its line number). A reduced rate keeps the
// run short; the view reads every field the same at any rate.
import { afterAll, describe, expect, it } from 'vitest';
import { isCoreError } from '../../model/core';
import { testSession } from '../../model/session/testSessions';
import { mapLayout } from './mapLayout';
import { readPower } from './powerScene';
import { STATE_STYLES } from './srcmapPalette';
import { clockText, counterRows, diskReadout, eventLines, intervalLine, locatedDisks, locateText, volumeReadout } from './srcmapReadout';
import { POWER_VIEW, traceFileProblem, type SrcmapClient } from './srcmapSession';
import type { LocateResult, SrcmapOp, SrcmapOpResult, SrcmapSnapshot } from './srcmapTypes';

let s: SrcmapClient | null = null;
afterAll(() => s?.dispose());

async function tick(dtNs: number) {
  const r = await s!.tick({ dtNs, maxEvents: 50_000_000, views: [POWER_VIEW] });
  if (!r.ok) throw new Error(r.message);
  return r;
}

describe('the srcmap session as the view reads it', () => {
  it('a snapshot with the pinned fields, drawn and worded', async () => {
    s = await testSession<SrcmapSnapshot, SrcmapOp, SrcmapOpResult>('srcmap', { rate_scale: 0.05, history_days: 4 });
    const r = await tick(5 * 3600e9);
    const sn = r.snapshot;
    expect(clockText(sn.t_h)).toBe('05:00');
    expect(sn.done).toBe(false);
    expect(sn.disks.map((d) => d.id)).toEqual(['D0', 'D1', 'D2', 'D3', 'D4', 'D5', 'D6', 'D7']);
    for (const d of sn.disks) expect(Object.keys(STATE_STYLES), d.state).toContain(d.state);
    expect(sn.volumes.map((v) => v.name)).toEqual(['home-1', 'online', 'webmail', 'webresrc', 'webusers', 'svn-wiki', 'home-2', 'home-3']);
    expect(sn.power.all_on_watts).toBeCloseTo(66.1, 1);
    expect(sn.power.standby_watts).toBeCloseTo(19.8, 1);
    expect(sn.totals.requests).toBeGreaterThan(0);
    expect(intervalLine(sn)).toMatch(/^SRCMap at L0 · interval 2 \(04:00–06:00\): \d+ disks? chosen active/);
    expect(counterRows(sn).every((row) => row.value !== '—')).toBe(true);
    for (let i = 0; i < 8; i++) {
      expect(diskReadout(sn, i)).toMatch(new RegExp(`^D${i}, `));
      expect(volumeReadout(sn, i)).toContain(sn.volumes[i]!.name);
    }
    expect(eventLines(sn).length).toBeGreaterThan(0);
    // Every volume is served by a disk the map draws, with a thick edge.
    const L = mapLayout(sn, 640);
    for (let v = 0; v < 8; v++) expect(L.edges.some((e) => e.volume === v && e.kind === 'served'), `volume ${v}`).toBe(true);
    // The power view: a row per elapsed minute.
    const p = readPower(r.views.power as Record<string, unknown>);
    expect(p).not.toBeNull();
    expect(p!.t_h.length).toBe(300);
    expect(p!.watts[0]).toBeGreaterThan(19);
    // Each spin-up carries its cause (0 planned, 1 read miss, 2 other I/O).
    expect(p!.spin_up_cause.length).toBe(p!.spin_up_h.length);
    for (let i = 0; i < p!.spin_up_cause.length; i++) expect([0, 1, 2]).toContain(p!.spin_up_cause[i]);
  }, 60_000);

  it('locate answers with the disks the map outlines; a malformed trace is refused by its line', async () => {
    const r = await s!.apply({ op: 'locate', volume: 0, offset_mb: 100 });
    if (isCoreError(r)) throw new Error(r.message);
    const lr = r.result as Partial<LocateResult>;
    expect(locatedDisks(lr)).toContain(0);
    expect(locateText(null, lr, 100)).toMatch(/^0 at 100 MB is extent \d+: primary 0/);
    const bad = await s!.apply({ op: 'load_trace', csv: '128166372003061629,web,0,Read,3221225472,4096,1331\n128166372003061630,web,0,Write,bad,4096,1331\n', history_h: 1 });
    expect(isCoreError(bad) && bad.message).toMatch(/line 2/);
    expect(traceFileProblem('t.csv', 0)).toBe('t.csv is empty');
    expect(traceFileProblem('t.csv', 10)).toBeNull();
  }, 60_000);
});
