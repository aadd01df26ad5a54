/**
 * `srcmap` snapshots for the view's tests, in the form COMMON18.md pins: SRCMap at L3 at 05:12
 * of the day (interval 2 of 2 h, two disks planned active, D5 spinning up for a read miss, home-1
 * and webresrc served by D3's replicas); Caching-2 with its two cache disks; a session just opened
 * (00:00, nothing run); a few hours of the "power" view; and the session's schema as the issue
 * pins it (the tests' stand-in until the core's sessions.json has `srcmap`).
 */
import type { OpArg, SessionInfo, SessionParam } from '../../model/session/schema';
import type { ParamValue } from '../../model/types';
import type { PowerSeries, SrcmapDisk, SrcmapSnapshot, SrcmapVolume } from './srcmapTypes';

const NAMES = ['home-1', 'online', 'webmail', 'webresrc', 'webusers', 'svn-wiki', 'home-2', 'home-3'];
const MODELS = ['WD5000AAKB', 'WD360GD', 'WD360GD', 'WD360GD', 'WD360GD', 'WD360GD', 'WD2500AAKS', 'WD2500AAKS'];

function disk(i: number, over: Partial<SrcmapDisk>): SrcmapDisk {
  return {
    id: `D${i}`, volume: NAMES[i]!, model: MODELS[i]!, kind: 'primary', state: 'standby', active: false,
    iops: 0, spin_ups: 1, served: 20_000, misses: 0, watts: 0.9, ...over,
  };
}

function volume(i: number, over: Partial<SrcmapVolume>): SrcmapVolume {
  return { id: `D${i}`, name: NAMES[i]!, iops: 5, serving: [i], replicas: [], dirty_extents: 0, ...over };
}

/** SRCMap at L3, 05:12: D1 and D3 active, D5 spinning up for a miss, the rest in standby. */
export function srcmapSnapshot(over: Partial<SrcmapSnapshot> = {}): SrcmapSnapshot {
  return {
    t_ns: 5.2 * 3600e9,
    t_h: 5.2,
    done: false,
    policy: 'srcmap',
    level: 3,
    interval_h: 2,
    workload: 'generated',
    interval: { index: 2, start_h: 4, planned_active: 2, predicted_iops: 61.5, capacity_iops: 130, load_iops: 58.2, remaps: 2 },
    disks: [
      disk(0, { state: 'standby', spin_ups: 2, served: 151_000, watts: 0.9 }),
      disk(1, { state: 'spinning', active: true, iops: 31.4, spin_ups: 0, served: 402_000, misses: 12, watts: 9.3 }),
      disk(2, { state: 'idle', active: false, iops: 0, spin_ups: 1, served: 380_000, watts: 8.1 }),
      disk(3, { state: 'spinning', active: true, iops: 26.1, spin_ups: 0, served: 210_000, misses: 3, watts: 9.6 }),
      disk(4, { state: 'standby', spin_ups: 1, served: 290_000 }),
      disk(5, { state: 'spinning-up', active: false, iops: 0.2, spin_ups: 3, served: 19_000, misses: 41, watts: 24 }),
      disk(6, { state: 'standby', spin_ups: 0, served: 0 }),
      disk(7, { state: 'standby', spin_ups: 0, served: 0 }),
    ],
    volumes: [
      volume(0, { iops: 7.9, serving: [3], replicas: [3], dirty_extents: 14 }),
      volume(1, { iops: 19.8, serving: [1], replicas: [3] }),
      volume(2, { iops: 10.1, serving: [1], replicas: [1, 3], dirty_extents: 3 }),
      volume(3, { iops: 6.2, serving: [3], replicas: [1] }),
      volume(4, { iops: 11.5, serving: [3], replicas: [1], dirty_extents: 40 }),
      volume(5, { iops: 0.9, serving: [5], replicas: [3] }),
      volume(6, { iops: 0.4, serving: [1], replicas: [1] }),
      volume(7, { iops: 1.4, serving: [3], replicas: [3] }),
    ],
    flows: [
      { volume: 0, disk: 3, iops: 7.9 },
      { volume: 1, disk: 1, iops: 19.8 },
      { volume: 2, disk: 1, iops: 10.1 },
      { volume: 3, disk: 3, iops: 6.2 },
      { volume: 4, disk: 3, iops: 11.5 },
      { volume: 5, disk: 5, iops: 0.2 },
      { volume: 5, disk: 3, iops: 0.7 },
      { volume: 6, disk: 1, iops: 0.4 },
      { volume: 7, disk: 3, iops: 1.4 },
    ],
    power: { watts: 42.6, all_on_watts: 66.1, standby_watts: 19.8, ideal_watts: 29.6, avg_watts: 38.4, saved_pct: 41.9 },
    totals: {
      requests: 1_612_004, reads: 402_118, writes: 1_209_886, misses: 56, sync_ios: 3_911, remaps: 5, spin_ups: 8,
      spinup_waits: 21, over_10ms_pct: 11.2, over_100ms_pct: 0.31,
    },
    events: [
      { t_h: 2, kind: 'interval', disk: -1, volume: -1, detail: 'interval 1 begins: 3 disks active, predicted 74 IOPS of 190' },
      { t_h: 2.0004, kind: 'remap', disk: 3, volume: 0, detail: 'home-1 → D3' },
      { t_h: 4, kind: 'interval', disk: -1, volume: -1, detail: 'interval 2 begins: 2 disks active, predicted 61.5 IOPS of 130' },
      { t_h: 4.0002, kind: 'remap', disk: 1, volume: 6, detail: 'home-2 → D1' },
      { t_h: 4.03, kind: 'spin-down', disk: 2, volume: -1, detail: '' },
      { t_h: 5.19, kind: 'miss', disk: 5, volume: 5, detail: 'extent 1204 not in D3’s replica' },
      { t_h: 5.19, kind: 'spin-up', disk: 5, volume: -1, detail: 'for a read miss' },
    ],
    ...over,
  };
}

/** Caching-2 at L0, 10:30: two cache disks take the reads, the primaries partly down. */
export function cachingSnapshot(): SrcmapSnapshot {
  const s = srcmapSnapshot({ policy: 'caching-2', level: 0, t_h: 10.5, t_ns: 10.5 * 3600e9 });
  const cache = (i: number, state: string): SrcmapDisk => ({
    id: `C${i}`, volume: '', model: 'WD360GD', kind: 'cache', state, active: true, iops: 12, spin_ups: 0, served: 90_000, misses: 0, watts: 9.3,
  });
  return {
    ...s,
    disks: [...s.disks, cache(0, 'spinning'), cache(1, 'idle')],
    volumes: s.volumes.map((v, i) => ({ ...v, serving: [i], replicas: [] })),
    flows: [{ volume: 0, disk: 8, iops: 3 }, { volume: 1, disk: 9, iops: 5 }, { volume: 1, disk: 1, iops: 14 }],
  };
}

/** A session just opened: 00:00, nothing run yet. */
export function emptySrcmapSnapshot(): SrcmapSnapshot {
  const s = srcmapSnapshot();
  return {
    ...s, t_ns: 0, t_h: 0, level: 0,
    interval: { index: 0, start_h: 0, planned_active: 3, predicted_iops: 40, capacity_iops: 190, load_iops: 0, remaps: 0 },
    disks: s.disks.map((d) => ({ ...d, state: 'idle', active: d.id === 'D1' || d.id === 'D2' || d.id === 'D3', iops: 0, spin_ups: 0, served: 0, misses: 0, watts: 8 })),
    volumes: s.volumes.map((v) => ({ ...v, iops: 0, dirty_extents: 0 })),
    flows: [],
    power: { watts: 66.1, all_on_watts: 66.1, standby_watts: 19.8, ideal_watts: 0, avg_watts: 0, saved_pct: 0 },
    totals: { requests: 0, reads: 0, writes: 0, misses: 0, sync_ios: 0, remaps: 0, spin_ups: 0, spinup_waits: 0, over_10ms_pct: 0, over_100ms_pct: 0 },
    events: [],
  };
}

/**
 * The "power" view over the first `hours` hours: a minute per row, watts stepping between
 * levels at each 2 h interval (a test pattern, not a run), load between 20 and 110 IOPS, and
 * two spin-ups.
 */
export function powerSeries(hours = 6): PowerSeries {
  const n = Math.round(hours * 60);
  const t = Float64Array.from({ length: n }, (_, i) => i / 60);
  const steps = [51.2, 42.6, 33.4, 42.6, 51.2, 60];
  const watts = Float64Array.from(t, (h) => steps[Math.floor(h / 2) % steps.length]!);
  const load = Float64Array.from(t, (h) => 65 + 45 * Math.sin(h));
  const ideal = Float64Array.from(load, (l) => (66.1 * l) / 190);
  const spinning = Float64Array.from(watts, (w) => Math.round((w - 19.8) / 5.8));
  return { t_h: t, watts, spinning, load_iops: load, ideal_watts: ideal, spin_up_h: [2.01, 5.19], spin_up_disk: [3, 5], spin_up_cause: [0, 1] };
}

/** The `srcmap` session's schema as COMMON18.md pins it. */
export function srcmapSchema(): SessionInfo {
  const p = (name: string, type: SessionParam['type'], def: ParamValue, extra: Partial<SessionParam> = {}): SessionParam =>
    ({ name, type, default: def, help: `the ${name}`, unit: '', live: false, ...extra }) as SessionParam;
  const arg = (name: string, type: OpArg['type'], extra: Partial<OpArg> = {}): OpArg =>
    ({ name, type, default: type === 'string' ? '' : 0, help: `the ${name}`, unit: '', required: true, ...extra }) as OpArg;
  return {
    id: 'srcmap', lab: 'srcmap', view: '', title: 'SRCMap storage day', summary: 'Eight disks, eight volumes, a day of SRCMap.', script: true,
    params: [
      p('policy', 'choice', 'srcmap', {
        choices: ['srcmap', 'baseline-on', 'caching-1', 'caching-2', 'replication'],
        labels: ['SRCMap', 'Baseline-On', 'Caching-1', 'Caching-2', 'Replication'],
      } as Partial<SessionParam>),
      p('level', 'int', 0, { min: 0, max: 4, live: true }),
      p('replica_pct', 'real', 10, { min: 0, max: 50, unit: '%' }),
      p('interval_h', 'real', 2, { min: 0.5, max: 6, unit: 'h' }),
      p('rate_scale', 'real', 1, { min: 0.01, max: 1 }),
      p('history_days', 'int', 21, { min: 2, max: 28, unit: 'days' }),
      p('retrigger', 'bool', true),
    ],
    ops: [
      { name: 'run_to', help: 'advance to an hour of the day', args: [arg('hour', 'real', { min: 0, max: 24, unit: 'h' })] },
      { name: 'locate', help: 'where a block of a volume is', args: [arg('volume', 'int', { min: 0, max: 7 }), arg('offset_mb', 'real', { min: 0, max: 1e7, unit: 'MB' })] },
      { name: 'load_trace', help: 'replay an MSR Cambridge CSV', args: [arg('csv', 'string'), arg('history_h', 'real', { min: 0, max: 1e5, unit: 'h', default: 24 })] },
    ],
    views: [{ name: 'power', help: 'a row per elapsed minute', args: [] }],
  };
}
