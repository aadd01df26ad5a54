/**
 * The SRCMap view's words and rows, from a snapshot: the day clock ("05:12"), the watts ("42.6 W"),
 * the interval and power lines, the counters (a row per quantity), the events (newest first),
 * what a focused disk or volume is doing, and a located block. Pure; every field read loosely
 * (a field the session lacks shows as a dash).
 */
import { fmt } from '../../viz/format';
import { stateStyle } from './srcmapPalette';
import type { LoadTraceResult, LocateResult, SrcmapConfig, SrcmapEvent, SrcmapSnapshot } from './srcmapTypes';

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const dash = '—';

/** Hours into the day as "hh:mm" (minutes rounded down, so 5.9999 h is 05:59; 24 h is 24:00). */
export function clockText(tH: number): string {
  const m = Math.floor(Math.min(24, Math.max(0, tH)) * 60 + 1e-9);
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** "42.6 W". */
export function wattsText(w: unknown): string {
  const v = num(w);
  return v === null ? `${dash} W` : `${v.toFixed(1)} W`;
}

/** The policies' names (the schema's labels; these when a build lacks them). */
export const POLICY_NAMES: Record<string, string> = {
  srcmap: 'SRCMap', 'baseline-on': 'Baseline-On', 'caching-1': 'Caching-1', 'caching-2': 'Caching-2', replication: 'Replication',
};

export function policyName(p: string): string {
  return POLICY_NAMES[p] ?? p;
}

/** A disk reference (an index, or an id such as "D3") as an index into snap.disks; -1 when none. */
export function diskIndex(snap: Pick<SrcmapSnapshot, 'disks'>, ref: unknown): number {
  if (typeof ref === 'number') return Number.isInteger(ref) && ref >= 0 && ref < snap.disks.length ? ref : -1;
  if (typeof ref === 'string' && ref !== '') return snap.disks.findIndex((d) => d.id === ref);
  return -1;
}

/** A volume reference (an index, its id "D0" or its name "home-1") as an index into snap.volumes; -1 when none. */
export function volumeIndex(snap: Pick<SrcmapSnapshot, 'volumes'>, ref: unknown): number {
  if (typeof ref === 'number') return Number.isInteger(ref) && ref >= 0 && ref < snap.volumes.length ? ref : -1;
  if (typeof ref === 'string' && ref !== '') return snap.volumes.findIndex((v) => v.id === ref || v.name === ref);
  return -1;
}

const diskId = (snap: SrcmapSnapshot, i: number) => snap.disks[i]?.id ?? `disk ${i}`;
const volName = (snap: SrcmapSnapshot, i: number) => snap.volumes[i]?.name ?? `volume ${i}`;
const list = (xs: string[]) => (xs.length === 0 ? 'none' : xs.length === 1 ? xs[0]! : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** The line under the clock: the policy, the level, the interval and what it decided. */
export function intervalLine(snap: SrcmapSnapshot): string {
  const head = `${policyName(snap.policy)} at L${snap.level}`;
  const iv = snap.interval;
  if (!iv) return `${head}.`;
  const end = Math.min(24, iv.start_h + snap.interval_h);
  // The index as the session numbers it (its events say "interval 8" of the one from 16:00).
  return `${head} · interval ${iv.index} (${clockText(iv.start_h)}–${clockText(end)}): ${plural(iv.planned_active, 'disk')} chosen active for a predicted ` +
    `${fmt(iv.predicted_iops)} IOPS against ${fmt(iv.capacity_iops)} IOPS of capacity; ${fmt(iv.load_iops)} IOPS so far; ${plural(iv.remaps, 'remap')}.`;
}

/** The whole setup in one line (the fields under "more" and the seed too). */
export function setupSummary(c: Partial<SrcmapConfig>, seed: number): string {
  return [
    `${policyName(String(c.policy ?? 'srcmap'))} at L${c.level ?? 0}`,
    `${c.replica_pct ?? 10}% replica space`,
    `${c.interval_h ?? 2} h intervals`,
    c.rate_scale !== undefined && c.rate_scale !== 1 ? `${c.rate_scale}× the rate` : 'full rate',
    `${c.history_days ?? 21} days of history`,
    `re-trigger ${c.retrigger === false ? 'off' : 'on'}`,
    `seed ${seed}`,
  ].join(' · ');
}

/** The power meter's words: now, the references, the day so far. */
export function powerLine(snap: SrcmapSnapshot): string {
  const p = snap.power;
  return `${wattsText(p.watts)} now (the last minute) against ${wattsText(p.all_on_watts)} with every disk on and ${wattsText(p.standby_watts)} with every disk in standby; ` +
    `the ideal (Eq. 3.1) at this load ${wattsText(p.ideal_watts)}. Today so far ${wattsText(p.avg_watts)} on average, ${fmt(p.saved_pct)}% saved against all-on.`;
}

export interface CounterRow {
  id: string;
  label: string;
  unit: string;
  value: string;
  help: string;
}

/** The counters table's rows. */
export function counterRows(snap: SrcmapSnapshot): CounterRow[] {
  const t = snap.totals;
  const n = (v: unknown) => { const x = num(v); return x === null ? dash : x.toLocaleString('en-US'); };
  const pc = (v: unknown) => { const x = num(v); return x === null ? dash : x < 0.01 && x > 0 ? x.toPrecision(2) : fmt(x); };
  return [
    { id: 'requests', label: 'requests', unit: 'requests', value: n(t.requests), help: `Requests that arrived today (${n(t.reads)} reads, ${n(t.writes)} writes)` },
    { id: 'misses', label: 'read misses', unit: 'reads', value: n(t.misses), help: 'Reads the live replica lacked: served by the primary (spun up if it was down), the extent then copied in' },
    { id: 'sync_ios', label: 'sync I/Os', unit: 'I/Os', value: n(t.sync_ios), help: 'Dirty extents copied back to the primary at consolidations, one per 10 ms' },
    { id: 'remaps', label: 'remaps', unit: 'remaps', value: n(t.remaps), help: 'Volumes moved to another replica (or back home) at a consolidation' },
    { id: 'spin_ups', label: 'spin-ups', unit: 'spin-ups', value: n(t.spin_ups), help: 'Disks spun up, planned at a decision or for a miss' },
    { id: 'spinup_waits', label: 'requests that waited for a spin-up', unit: 'requests', value: n(t.spinup_waits), help: 'Requests that arrived at a disk spinning up' },
    { id: 'over_10ms_pct', label: 'responses over 10 ms', unit: '%', value: pc(t.over_10ms_pct), help: 'Of today’s requests (Fig 3.9)' },
    { id: 'over_100ms_pct', label: 'responses over 100 ms', unit: '%', value: pc(t.over_100ms_pct), help: 'Of today’s requests (Fig 3.9)' },
    { id: 'avg_watts', label: 'average power', unit: 'W', value: num(snap.power.avg_watts) === null ? dash : snap.power.avg_watts.toFixed(1), help: 'Today so far, all disks and the system (Table 3.3(b))' },
    { id: 'saved_pct', label: 'saved against all-on', unit: '%', value: pc(snap.power.saved_pct), help: `Against ${wattsText(snap.power.all_on_watts)} all day` },
  ];
}

const KIND_LABELS: Record<string, string> = {
  'spin-up': 'spin-up', 'spin-down': 'spin-down', remap: 'remap', retrigger: 're-trigger', interval: 'interval', miss: 'read miss',
};

export interface EventLine {
  key: string;
  kind: string;
  text: string;
}

/** One event in words: "05:11 spin-up D5: for a read miss", "04:00 remap home-1 → D3". */
export function eventText(snap: SrcmapSnapshot, e: SrcmapEvent): string {
  const d = diskIndex(snap, e.disk);
  const v = volumeIndex(snap, e.volume);
  let who = '';
  if (e.kind === 'remap' || e.kind === 'miss') who = [v >= 0 ? volName(snap, v) : '', d >= 0 ? diskId(snap, d) : ''].filter(Boolean).join(' → ');
  else if (d >= 0) who = v >= 0 ? `${diskId(snap, d)} (${volName(snap, v)})` : diskId(snap, d);
  else if (v >= 0) who = volName(snap, v);
  const label = KIND_LABELS[e.kind] ?? e.kind;
  // "interval 8: …" says its kind itself.
  if (!who && e.detail.startsWith(label)) return `${clockText(e.t_h)} ${e.detail}`;
  const head = `${clockText(e.t_h)} ${label}${who ? ` ${who}` : ''}`;
  return e.detail ? `${head}: ${e.detail}` : head;
}

/**
 * The events, newest first; a run of the same event in the same minute (the same kind, disk,
 * volume and detail: a burst of misses waiting for one spin-up) is one line with its count.
 */
export function eventLines(snap: SrcmapSnapshot): EventLine[] {
  const out: Array<EventLine & { same: string; n: number; first: SrcmapEvent }> = [];
  snap.events.forEach((e, i) => {
    const same = `${clockText(e.t_h)}|${e.kind}|${String(e.disk)}|${String(e.volume)}|${e.detail}`;
    const last = out[out.length - 1];
    if (last && last.same === same) {
      last.n += 1;
      return;
    }
    out.push({ key: `${i}:${e.t_h}:${e.kind}`, kind: e.kind, text: '', same, n: 1, first: e });
  });
  return out.map((l) => {
    const text = eventText(snap, l.first);
    return { key: l.key, kind: l.kind, text: l.n > 1 ? text.replace(/^(\d\d:\d\d \S+(?: [^:]*)?)/, `$1 (×${l.n})`) : text };
  }).reverse();
}

/** The volumes (names) a disk serves now, and those it holds a replica of. */
function diskRoles(snap: SrcmapSnapshot, i: number): { serves: string[]; holds: string[] } {
  const serves: string[] = [];
  const holds: string[] = [];
  snap.volumes.forEach((v) => {
    if (v.serving.some((s) => diskIndex(snap, s) === i)) serves.push(v.name);
    if (v.replicas.some((s) => diskIndex(snap, s) === i)) holds.push(v.name);
  });
  return { serves, holds };
}

/** A disk in words (the map's focused node). */
export function diskReadout(snap: SrcmapSnapshot, i: number): string {
  const d = snap.disks[i];
  if (!d) return '';
  const { serves, holds } = diskRoles(snap, i);
  const what = d.kind === 'cache' ? `cache disk (${d.model})` : `${d.volume}'s primary (${d.model})`;
  return `${d.id}, ${what}: ${stateStyle(d.state).label}, ${d.active ? 'in' : 'not in'} the active set; ${fmt(d.iops)} IOPS in the last minute; ` +
    `serves ${list(serves)}; ${d.kind === 'cache' ? '' : `holds replicas of ${list(holds)}; `}${plural(d.spin_ups, 'spin-up')} today; ` +
    `${d.served.toLocaleString('en-US')} I/Os served, ${plural(d.misses, 'read miss', 'read misses')}; ${wattsText(d.watts)}.`;
}

/** A volume in words (the map's focused node). */
export function volumeReadout(snap: SrcmapSnapshot, i: number): string {
  const v = snap.volumes[i];
  if (!v) return '';
  const serving = [...new Set(v.serving.map((s) => diskIndex(snap, s)).filter((s) => s >= 0))];
  const home = snap.disks[i];
  const away = serving.filter((s) => s !== i);
  const servedBy = serving.length === 0 ? 'served by no disk' : `served by ${list(serving.map((s) => diskId(snap, s)))} now`;
  const homeState = home && away.length > 0 && !serving.includes(i) ? ` (its primary ${home.id} is ${stateStyle(home.state).label})` : '';
  const reps = v.replicas.map((r) => diskIndex(snap, r)).filter((r) => r >= 0).map((r) => diskId(snap, r));
  return `${v.name} (${v.id}): ${fmt(v.iops)} IOPS in the last minute; ${servedBy}${homeState}; working-set replicas on ${list(reps)}; ` +
    `${plural(v.dirty_extents, 'dirty extent')} (newer in a replica than on the primary, to sync at a consolidation).`;
}

/** A `locate` answer in words. */
export function locateText(snap: SrcmapSnapshot | null, r: Partial<LocateResult>, offsetMb: number): string {
  const d = (i: unknown) => (snap && typeof i === 'number' && snap.disks[i] ? snap.disks[i]!.id : String(i));
  const ds = (xs: unknown) => (Array.isArray(xs) ? list(xs.map(d)) : dash);
  const v = snap && typeof r.volume === 'number' ? volName(snap, r.volume) : String(r.volume ?? dash);
  return `${v} at ${fmt(offsetMb)} MB is extent ${r.extent ?? dash}: primary ${d(r.primary)}, served now by ${d(r.serving)}; replicas on ${ds(r.replicas)}; ` +
    `${r.in_working_set ? 'in' : 'not in'} the replicated working set; ${r.dirty ? 'dirty (its primary copy is stale)' : 'clean'}; latest version on ${ds(r.latest_on)}.`;
}

/** The disks a `locate` answer names (primary, serving, replicas, latest), as indices. */
export function locatedDisks(r: Partial<LocateResult> | null): number[] {
  if (!r) return [];
  const all = [r.primary, r.serving, ...(Array.isArray(r.replicas) ? r.replicas : []), ...(Array.isArray(r.latest_on) ? r.latest_on : [])];
  return [...new Set(all.filter((x): x is number => typeof x === 'number' && x >= 0))].sort((a, b) => a - b);
}

/** What the clock says besides the time: the day is over, or which workload runs. */
export function dayStatus(snap: SrcmapSnapshot): string {
  const w = snap.workload === 'trace' ? 'a loaded trace' : 'the generated workload';
  return snap.done ? `The day is over (${w}): Reset or change a setting to run another.` : `Running ${w}.`;
}

/** A loaded trace in words. */
export function traceText(file: string, r: Partial<LoadTraceResult>): string {
  const n = (v: unknown) => (typeof v === 'number' ? v.toLocaleString('en-US') : dash);
  const h = (v: unknown) => (typeof v === 'number' ? fmt(v) : dash);
  return `Replaying ${file}: ${n(r.volumes)} volumes, ${n(r.requests)} requests over ${h(r.span_h)} h; the first ${h(r.history_h)} h are the history SRCMap ` +
    'samples the working sets from, the next 24 h the day, which restarted at 00:00. Press Play.';
}
