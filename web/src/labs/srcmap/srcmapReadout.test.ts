import { describe, expect, it } from 'vitest';
import { srcmapSnapshot, emptySrcmapSnapshot } from './srcmapFixtures';
import {
  clockText, counterRows, setupSummary, traceText, dayStatus, diskIndex, diskReadout, eventLines, intervalLine, locatedDisks, locateText, volumeIndex,
  volumeReadout, wattsText,
} from './srcmapReadout';

describe('the clock and the watts', () => {
  it('reads hours as hh:mm, minutes rounded down, clamped to the day', () => {
    expect(clockText(0)).toBe('00:00');
    expect(clockText(5.2)).toBe('05:12');
    expect(clockText(5.99999)).toBe('05:59');
    expect(clockText(13.5)).toBe('13:30');
    expect(clockText(24)).toBe('24:00');
    expect(clockText(30)).toBe('24:00');
    expect(clockText(-1)).toBe('00:00');
  });
  it('watts to a tenth, a dash when missing', () => {
    expect(wattsText(42.6)).toBe('42.6 W');
    expect(wattsText(66.1)).toBe('66.1 W');
    expect(wattsText(19.8)).toBe('19.8 W');
    expect(wattsText(undefined)).toBe('— W');
  });
});

describe('references and lines', () => {
  const s = srcmapSnapshot();
  it('finds disks and volumes by index, id or name', () => {
    expect(diskIndex(s, 3)).toBe(3);
    expect(diskIndex(s, 'D5')).toBe(5);
    expect(diskIndex(s, -1)).toBe(-1);
    expect(diskIndex(s, 99)).toBe(-1);
    expect(volumeIndex(s, 'home-2')).toBe(6);
    expect(volumeIndex(s, 'D1')).toBe(1);
  });
  it('says the interval and what it decided', () => {
    expect(intervalLine(s)).toBe('SRCMap at L3 · interval 2 (04:00–06:00): 2 disks chosen active for a predicted 61.5 IOPS against 130 IOPS of capacity; 58.2 IOPS so far; 2 remaps.');
    expect(dayStatus(s)).toBe('Running the generated workload.');
    expect(dayStatus({ ...s, done: true, workload: 'trace' })).toMatch(/^The day is over \(a loaded trace\)/);
  });
  it('sums the setup up', () => {
    expect(setupSummary({ policy: 'caching-2', level: 1, replica_pct: 10, interval_h: 2, rate_scale: 0.1, history_days: 21, retrigger: false }, 3))
      .toBe('Caching-2 at L1 · 10% replica space · 2 h intervals · 0.1× the rate · 21 days of history · re-trigger off · seed 3');
    expect(setupSummary({ policy: 'srcmap', level: 0, rate_scale: 1 }, 1)).toBe('SRCMap at L0 · 10% replica space · 2 h intervals · full rate · 21 days of history · re-trigger on · seed 1');
  });
  it('the events newest first, with their disks and volumes named', () => {
    const lines = eventLines(s);
    expect(lines).toHaveLength(7);
    expect(lines[0]!.text).toBe('05:11 spin-up D5: for a read miss');
    expect(lines[1]!.text).toBe('05:11 read miss svn-wiki → D5: extent 1204 not in D3’s replica');
    expect(lines[3]!.text).toBe('04:00 remap home-2 → D1: home-2 → D1');
    expect(lines[6]!.text).toBe('02:00 interval 1 begins: 3 disks active, predicted 74 IOPS of 190');
    expect(lines.find((l) => l.kind === 'spin-down')!.text).toBe('04:01 spin-down D2');
    const burst = srcmapSnapshot();
    const miss = { t_h: 4.3, kind: 'miss', disk: 5, volume: 5, detail: 'a read miss waits for D5 to spin up' };
    burst.events = [miss, { ...miss, t_h: 4.301 }, { ...miss, t_h: 4.302 }, { t_h: 4.33, kind: 'spin-down', disk: 5, volume: 5, detail: 'idle' }];
    expect(eventLines(burst).map((l) => l.text)).toEqual(['04:19 spin-down D5 (svn-wiki): idle', '04:18 read miss svn-wiki → D5 (×3): a read miss waits for D5 to spin up']);
  });
});

describe('the focused node in words', () => {
  const s = srcmapSnapshot();
  it('a disk: state, set, what it serves and holds', () => {
    expect(diskReadout(s, 3)).toBe("D3, webresrc's primary (WD360GD): spinning, in the active set; 26.1 IOPS in the last minute; serves home-1, webresrc, webusers and home-3; " +
      'holds replicas of home-1, online, webmail, svn-wiki and home-3; 0 spin-ups today; 210,000 I/Os served, 3 read misses; 9.6 W.');
    expect(diskReadout(s, 5)).toMatch(/^D5, svn-wiki's primary \(WD360GD\): spinning up, not in the active set/);
    expect(diskReadout(s, 42)).toBe('');
  });
  it('a volume: served where, its primary\'s state, replicas, dirty extents', () => {
    expect(volumeReadout(s, 0)).toBe('home-1 (D0): 7.9 IOPS in the last minute; served by D3 now (its primary D0 is standby); working-set replicas on D3; ' +
      '14 dirty extents (newer in a replica than on the primary, to sync at a consolidation).');
    expect(volumeReadout(s, 1)).toMatch(/served by D1 now; working-set replicas on D3; 0 dirty extents/);
  });
});

describe('the counters', () => {
  it('a row per quantity the issue names, with its value', () => {
    const rows = counterRows(srcmapSnapshot());
    expect(rows.map((r) => r.id)).toEqual(['requests', 'misses', 'sync_ios', 'remaps', 'spin_ups', 'spinup_waits', 'over_10ms_pct', 'over_100ms_pct', 'avg_watts', 'saved_pct']);
    const v = Object.fromEntries(rows.map((r) => [r.id, r.value]));
    expect(v).toMatchObject({ requests: '1,612,004', misses: '56', sync_ios: '3,911', spin_ups: '8', over_10ms_pct: '11.2', over_100ms_pct: '0.31', avg_watts: '38.4', saved_pct: '41.9' });
    expect(counterRows(emptySrcmapSnapshot()).find((r) => r.id === 'requests')!.value).toBe('0');
  });
});

describe('a located block', () => {
  it('in words, and the disks to outline', () => {
    const r = { volume: 0, extent: 1600, primary: 0, serving: 3, replicas: [3], in_working_set: true, dirty: true, latest_on: [3] };
    expect(locateText(srcmapSnapshot(), r, 100)).toBe('home-1 at 100 MB is extent 1600: primary D0, served now by D3; replicas on D3; in the replicated working set; ' +
      'dirty (its primary copy is stale); latest version on D3.');
    expect(locatedDisks(r)).toEqual([0, 3]);
    expect(locatedDisks(null)).toEqual([]);
    expect(locateText(null, {}, 5)).toMatch(/^— at 5 MB is extent —/);
  });
});

describe('a loaded trace', () => {
  it('in words', () => {
    expect(traceText('web.csv', { volumes: 3, requests: 120000, span_h: 168, history_h: 144 })).toBe('Replaying web.csv: 3 volumes, 120,000 requests over 168 h; ' +
      'the first 144 h are the history SRCMap samples the working sets from, the next 24 h the day, which restarted at 00:00. Press Play.');
  });
});
