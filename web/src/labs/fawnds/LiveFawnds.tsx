/**
 * The FAWN-DS lab's live node: a FawndsSession in the core (a FAWN-DS node's stores on the
 * emulated CF card, crashable), stepped from requestAnimationFrame. Operations go through the
 * controls; the logs and the index come as columns (fetched when the session's version
 * changes, at most a tenth of the time for big logs) and are drawn on canvases by logScene and indexScene; the
 * panels read the snapshot. A lesson scenario's `script` runs one operation per frame (a big
 * fill in chunks) so the page stays responsive while it loads. The default speed is auto
 * (fawndsAutoMode): slow motion while a compaction, split or merge runs, its lock afresh.
 * Records are labelled by the key typed for them where the page knows it (keyNames).
 */
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { isCoreError, type LiveFawndsSession } from '../../model/core';
import type { FawndsIndexCells, FawndsLiveConfig, FawndsLog, FawndsOp, FawndsOpResult, FawndsSnapshot } from '../../model/fawndsTypes';
import { paintScene } from '../../viz/canvasScene';
import { describeCell, indexCellPlan, indexScene, type IndexLayout } from '../../viz/fawndsIndexView';
import {
  describeRecord,
  fitViewport,
  logScene,
  panViewport,
  recordAt,
  zoomViewport,
  type LogCursor,
  type LogLayout,
  type LogRow,
  type LogViewport,
} from '../../viz/fawndsLogView';
import { timelineScene } from '../../viz/fawndsTimeline';
import { fmtNs } from '../../viz/format';
import { FawndsControls } from './FawndsControls';
import { FawndsCounters, LookupPanel, MaintenancePanel, RecentOps, RecoveryPanel } from './FawndsPanels';
import type { AutoMode, AutoPolicy } from '../../app/autoSpeed';
import { AUTO_SPEED, Field, LiveControls, liveKeys, numberFrom, speedsOf, type Speed } from '../../app/LiveControls';
import type { LiveRequest } from '../../app/labModule';
import { ScriptQueue, scriptedCreate } from '../../app/scriptQueue';
import { useLiveSession } from '../../app/useLiveSession';
import { canvasPoint, canvasWidth } from '../../app/viewSize';

/**
 * Virtual time per wall second: at 10 ms/s the SOSP lock (25 ms) holds for 2.5 s. The
 * default, auto, cruises at 1 s/s, scans a maintenance's source from 200 ms/s (a compaction
 * of a thousand records under load takes about 2.3 s of virtual time on the CF card; the
 * clock speeds up after 1.5 s), and shows its lock from 10 ms/s.
 */
export const FAWNDS_SPEEDS: Speed[] = [AUTO_SPEED, ...speedsOf([1e6, 1e7, 1e8, 1e9, 1e10])];

const FAWNDS_AUTO: AutoPolicy<FawndsSnapshot> = { slowNsPerSec: 1e7, cruiseNsPerSec: 1e9, fastNsPerSec: 1e9, mode: (sn, busy) => fawndsAutoMode(sn, busy) };

/** The auto speed's reading of a snapshot. */
export function fawndsAutoMode(snap: FawndsSnapshot, busy: boolean): AutoMode {
  const m = snap.maintenance;
  if (!busy || !m.running) return { kind: 'cruise', what: '' };
  if (m.locked) return { kind: 'slow', what: `the ${m.kind}'s lock holds requests (${fmtNs(m.lock_hold_ns)})`, nsPerSec: 1e7 };
  if (m.source < 0) return { kind: 'slow', what: `${m.kind} finishing: the store list is committed`, nsPerSec: 2e8 };
  return { kind: 'slow', what: `${m.kind} of store ${m.source} in progress`, nsPerSec: 2e8 };
}

/** The top 32 bits of a key (its first 8 hex digits) → the key typed for it, from operation results. */
export function noteKeyName(names: Map<number, string>, r: FawndsOpResult): void {
  if (r.key === undefined || !r.key_hex || r.key_hex.length < 8) return;
  names.set(Number.parseInt(r.key_hex.slice(0, 8), 16), r.key);
}

export const DEFAULT_FAWNDS: Required<FawndsLiveConfig> = {
  profile: 'sandisk-cf-4gb',
  capacity_mb: 256,
  stores: 4,
  index_bits: 10,
  file_mb: 16,
  lock_hold_us: 25000,
  page_cache_mb: 0,
  value_bytes: 64,
  load_rate_per_s: 0,
  load_put_fraction: 0.5,
  load_keys: 1000,
  script: [],
};

const PROFILES: Array<[string, string]> = [
  ['sandisk-cf-4gb', 'SanDisk CF card (FAWN prototype)'],
  ['intel-x25m', 'Intel X25-M SSD'],
  ['intel-x25e', 'Intel X25-E SSD'],
  ['nvm-4ch', 'NVM, 4 channels'],
  ['disk-7200', '7200 rpm disk'],
];

const CHUNK = 25_000;

/** A scenario's operations with big fills split into chunks (one per frame). */
export function expandScript(ops: FawndsOp[]): FawndsOp[] {
  const out: FawndsOp[] = [];
  for (const op of ops) {
    if ((op.op === 'fill' || op.op === 'delete-many') && op.count > CHUNK) {
      const step = op.op === 'delete-many' ? (op.step ?? 1) : 1;
      for (let done = 0; done < op.count; done += CHUNK) {
        const count = Math.min(CHUNK, op.count - done);
        const from = (op.from ?? 0) + done * step;
        out.push(op.op === 'fill' ? { op: 'fill', count, from } : { op: 'delete-many', count, from, step });
      }
    } else {
      out.push(op);
    }
  }
  return out;
}

/** One line saying what an operation did. */
export function describeResult(op: FawndsOp, r: FawndsOpResult, playing = false): string {
  const t = (ns?: number) => (ns !== undefined && ns >= 0 ? fmtNs(ns) : '—');
  switch (op.op) {
    case 'put':
      return `put “${op.key}” → store ${r.store}: ${r.status}${r.queued ? ' (held by a lock)' : ''}, ${t(r.latency_ns)}`;
    case 'get':
      return r.status === 'ok'
        ? `get “${op.key}” → “${r.value}” from store ${r.store}, ${r.record_reads} flash read${r.record_reads === 1 ? '' : 's'}, ${t(r.latency_ns)}`
        : `get “${op.key}” → ${r.status === 'not_found' ? 'not found' : r.status} in store ${r.store}, ${r.record_reads ? `${r.record_reads} flash read${r.record_reads === 1 ? '' : 's'} (false positive${r.record_reads === 1 ? '' : 's'}), ${t(r.latency_ns)}` : 'no flash read: the index alone said so'}`;
    case 'delete':
      return `delete “${op.key}” → store ${r.store}: ${r.status === 'not_found' ? 'not found (nothing written)' : r.status}, ${t(r.latency_ns)}`;
    case 'fill':
    case 'delete-many':
      return `${op.op}: ${r.succeeded?.toLocaleString('en-US')} of ${r.issued?.toLocaleString('en-US')} keys, then a sync`;
    case 'compact':
    case 'split':
    case 'merge':
      return `${op.op} of store ${r.store}${r.other !== undefined ? ` and ${r.other}` : ''} ${r.finished ? 'finished' : playing ? 'started: watch it run below' : 'started: press Play to watch it'}`;
    case 'checkpoint':
      return `checkpointed ${op.store === undefined ? 'every store' : `store ${op.store}`} in ${t(r.latency_ns)}`;
    case 'sync':
      return `synced: every acknowledged write is durable (${t(r.latency_ns)})`;
    case 'crash':
      return `crash: ${r.lost_records} record${r.lost_records === 1 ? '' : 's'} lost (${r.unsynced_bytes?.toLocaleString('en-US')} unsynced bytes undone); the DRAM index is gone`;
    case 'recover':
      return `recovered ${r.stores} store${r.stores === 1 ? '' : 's'} in ${t(r.duration_ns)} of device time: ${r.replayed_records} records replayed`;
  }
}

export function LiveFawnds({ request, active = true, onEdit }: { request: LiveRequest<FawndsLiveConfig> | null; active?: boolean; onEdit?: (changed: Partial<FawndsLiveConfig>) => void }) {
  const sess = useRef<LiveFawndsSession | null>(null);
  const script = useRef(new ScriptQueue<FawndsOp>());
  const logs = useRef(new Map<number, FawndsLog>());
  const names = useRef(new Map<number, string>());
  const cells = useRef<FawndsIndexCells | null>(null);
  const lastVersion = useRef(-1);
  const lastFetch = useRef(0);
  const fetchCost = useRef(0);
  const lastTimeline = useRef(0);
  const force = useRef(true);
  const dirty = useRef(true);
  const viewport = useRef<LogViewport>({ start: 0, end: 1024 });
  const autoFit = useRef(true);
  const cursor = useRef<LogCursor | null>(null);
  const cellCursor = useRef<number | null>(null);
  const rows = useRef<LogRow[]>([]);
  const logLayoutRef = useRef<LogLayout | null>(null);
  const indexLayoutRef = useRef<IndexLayout | null>(null);
  const storeRef = useRef(0);
  const lastSnap = useRef<FawndsSnapshot | null>(null);
  const logCanvas = useRef<HTMLCanvasElement>(null);
  const indexCanvas = useRef<HTMLCanvasElement>(null);
  const timeCanvas = useRef<HTMLCanvasElement>(null);
  const logWrap = useRef<HTMLDivElement>(null);
  const indexWrap = useRef<HTMLDivElement>(null);

  const [store, setStoreState] = useState(0);
  const [opError, setOpError] = useState<string | null>(null);
  const [result, setResult] = useState('');
  const [scriptStatus, setScriptStatus] = useState('');
  const [logReadout, setLogReadout] = useState('Focus the log view and use the arrow keys to read its records.');
  const [indexReadout, setIndexReadout] = useState('');
  const [logCounts, setLogCounts] = useState<number[] | null>(null);
  const [indexNote, setIndexNote] = useState('');

  const setStore = (s: number) => {
    storeRef.current = s;
    setStoreState(s);
    force.current = true;
  };

  const live = useLiveSession<FawndsLiveConfig, FawndsSnapshot, LiveFawndsSession>({
    request,
    onEdit,
    defaults: DEFAULT_FAWNDS,
    speeds: FAWNDS_SPEEDS,
    defaultSpeed: 0,
    auto: FAWNDS_AUTO,
    playOnScenario: true,
    active,
    create: scriptedCreate((core, c, seed) => core.createFawndsSession(c, seed), sess, script.current, expandScript),
    structural: (c) => ({ profile: c.profile, capacity_mb: c.capacity_mb, stores: c.stores, index_bits: c.index_bits, file_mb: c.file_mb,
      lock_hold_us: c.lock_hold_us, page_cache_mb: c.page_cache_mb, script: c.script }),
    running: (c) => ({ value_bytes: c.value_bytes, load_rate_per_s: c.load_rate_per_s, load_put_fraction: c.load_put_fraction, load_keys: c.load_keys }),
    draw: (sn, now) => frame(sn, now),
    onNew: () => {
      logs.current.clear();
      cells.current = null;
      lastVersion.current = -1;
      force.current = true;
      autoFit.current = true;
      cursor.current = null;
      cellCursor.current = null;
      names.current.clear();
      storeRef.current = 0;
      setStoreState(0);
      setResult('');
      setOpError(null);
      setScriptStatus('');
    },
  });
  const { config, update, snap, error } = live;

  const fetchColumns = (s: LiveFawndsSession, sn: FawndsSnapshot) => {
    const m = new Map<number, FawndsLog>();
    for (const st of sn.stores) {
      const l = s.log(st.id);
      if (!isCoreError(l)) m.set(st.id, l);
    }
    logs.current = m;
    const counts = [0, 0, 0, 0, 0];
    for (const l of m.values()) l.counts.forEach((c, k) => (counts[k]! += c));
    setLogCounts((prev) => (prev && prev.join() === counts.join() ? prev : counts));
    const storeCount = sn.stores.filter((x) => x.role !== 'building').length;
    if (storeRef.current >= storeCount && storeCount > 0) {
      storeRef.current = 0;
      setStoreState(0);
    }
    if (sn.crashed) {
      cells.current = null;
      setIndexNote('The index lived in DRAM and was lost in the crash: recover to rebuild it from the checkpoint and the log.');
    } else {
      const st = sn.stores.find((x) => x.id === storeRef.current);
      const plan = indexCellPlan(st?.index_bits ?? sn.config.index_bits);
      const c = s.index(storeRef.current, 0, plan.count, plan.group);
      cells.current = isCoreError(c) ? null : c;
      setIndexNote(isCoreError(c) ? c.message : '');
    }
  };

  const buildRows = (sn: FawndsSnapshot): LogRow[] => {
    const m = sn.maintenance;
    const lk = sn.last_lookup;
    const list = sn.stores.map((st): LogRow => ({
      id: st.id,
      range: st.range.label,
      role: st.role,
      capacity: st.log_capacity,
      log: logs.current.get(st.id) ?? null,
      names: names.current,
      scan: m.running && st.id === m.source ? m.scanned : undefined,
      locked: m.running && m.locked && (st.id === m.source || st.id === m.destination),
      reads: lk && lk.store === st.id && !sn.crashed ? lk.reads.map((r) => ({ offset: r.log_offset, falsePositive: r.false_positive })) : undefined,
      note: st.role === 'building' ? `new store ← ${m.kind} of store ${m.source}` : st.role === 'source' ? `${m.kind} source` : st.role === 'destination' ? `${m.kind} destination` : undefined,
    }));
    // Ring order, with a store being built right after its source.
    const key = (r: LogRow) => {
      const st = sn.stores.find((x) => x.id === r.id)!;
      if (r.role === 'building') {
        const src = sn.stores.find((x) => x.id === m.source);
        return (src ? src.range.start_frac : 0) + 1e-9;
      }
      return st.range.start_frac;
    };
    return list.sort((a, b) => key(a) - key(b));
  };

  const paintLog = (sn: FawndsSnapshot) => {
    const canvas = logCanvas.current;
    if (!canvas) return;
    const width = canvasWidth(logWrap.current, 800);
    rows.current = buildRows(sn);
    if (autoFit.current) viewport.current = fitViewport(rows.current);
    const { scene, layout } = logScene(rows.current, viewport.current, { width, crashed: sn.crashed, cursor: cursor.current });
    logLayoutRef.current = layout;
    paintScene(canvas, scene, window.devicePixelRatio || 1);
  };

  const paintIndex = (sn: FawndsSnapshot) => {
    const canvas = indexCanvas.current;
    if (!canvas) return;
    const c = cells.current;
    if (!c) {
      canvas.style.display = 'none';
      indexLayoutRef.current = null;
      return;
    }
    canvas.style.display = '';
    const width = canvasWidth(indexWrap.current, 480);
    const { scene, layout } = indexScene(c, { width, store: storeRef.current, lookup: sn.last_lookup, cursor: cellCursor.current });
    indexLayoutRef.current = layout;
    paintScene(canvas, scene, window.devicePixelRatio || 1);
  };

  function frame(sn: FawndsSnapshot, now: number) {
    const s = sess.current;
    if (!s) return;
    lastSnap.current = sn;
    const stepped = script.current.step({
      apply: (op: FawndsOp) => {
        const r = s.apply(op);
        if (!isCoreError(r)) noteKeyName(names.current, r.result);
        return r;
      },
    });
    if (stepped) {
      if (stepped.error) setOpError(stepped.error);
      setScriptStatus(stepped.status);
      force.current = true;
      return;
    }
    const v = s.version();
    // Columns cost time in proportion to the records (about 0.1 s for a million in the
    // browser): fetch at most every 60 ms, and spend at most a tenth of the time on it.
    const wait = Math.max(60, 10 * fetchCost.current);
    if (force.current || (v !== lastVersion.current && now - lastFetch.current > wait)) {
      force.current = false;
      lastVersion.current = v;
      lastFetch.current = now;
      const t0 = performance.now();
      fetchColumns(s, sn);
      dirty.current = true;
      paintLog(sn);
      paintIndex(sn);
      dirty.current = false;
      fetchCost.current = performance.now() - t0;
    }
    if (dirty.current) {
      dirty.current = false;
      paintLog(sn);
      paintIndex(sn);
    }
    if (now - lastTimeline.current > 100 && timeCanvas.current) {
      lastTimeline.current = now;
      const width = canvasWidth(logWrap.current, 800);
      paintScene(timeCanvas.current, timelineScene(sn.timeline, sn.time_ns, width), window.devicePixelRatio || 1);
    }
  }

  // Repaint on resize.
  useEffect(() => {
    const ro = new ResizeObserver(() => (dirty.current = true));
    if (logWrap.current) ro.observe(logWrap.current);
    if (indexWrap.current) ro.observe(indexWrap.current);
    return () => ro.disconnect();
  }, []);

  const runOp = (op: FawndsOp) => {
    const s = sess.current;
    if (!s) return;
    const r = s.apply(op);
    force.current = true;
    if (isCoreError(r)) {
      setOpError(r.message);
      return;
    }
    setOpError(null);
    noteKeyName(names.current, r.result);
    const maintenance = (op.op === 'compact' || op.op === 'split' || op.op === 'merge') && !r.result.finished;
    setResult(describeResult(op, r.result, live.isPlaying || maintenance));
    if ((op.op === 'put' || op.op === 'get' || op.op === 'delete') && r.result.store !== undefined && r.result.store >= 0) setStore(r.result.store);
    if (maintenance && !live.isPlaying) live.setPlay(true);
  };

  // Keyboard: the log view.
  const describeCursor = () => {
    const c = cursor.current;
    const row = c ? rows.current[c.row] : undefined;
    setLogReadout(c && row ? describeRecord(row, c.record) : 'No record.');
  };
  const ensureVisible = () => {
    const c = cursor.current;
    const log = c ? rows.current[c.row]?.log : null;
    if (!c || !log) return;
    const o = log.offsets[c.record]!;
    const v = viewport.current;
    if (o < v.start || o >= v.end) {
      autoFit.current = false;
      const limit = Math.max(...rows.current.map((r) => r.capacity));
      viewport.current = panViewport({ start: o - (v.end - v.start) / 2, end: o + (v.end - v.start) / 2 }, 0, limit);
    }
  };
  const zoom = (factor: number) => {
    const limit = Math.max(1024, ...rows.current.map((r) => r.capacity));
    const v = viewport.current;
    const c = cursor.current;
    const log = c ? rows.current[c.row]?.log : null;
    const at = c && log ? log.offsets[c.record]! : (v.start + v.end) / 2;
    autoFit.current = false;
    viewport.current = zoomViewport(v, factor, at, limit);
    dirty.current = true;
  };
  const fit = () => {
    autoFit.current = true;
    dirty.current = true;
  };
  const onLogKey = (e: KeyboardEvent) => {
    const rs = rows.current;
    if (rs.length === 0) return;
    const c = cursor.current ?? { row: 0, record: 0 };
    const n = rs[c.row]?.log?.offsets.length ?? 0;
    let next: LogCursor | null = null;
    switch (e.key) {
      case 'ArrowRight': next = { ...c, record: Math.min(n - 1, c.record + 1) }; break;
      case 'ArrowLeft': next = { ...c, record: Math.max(0, c.record - 1) }; break;
      case 'ArrowDown':
      case 'ArrowUp': {
        const row = Math.max(0, Math.min(rs.length - 1, c.row + (e.key === 'ArrowDown' ? 1 : -1)));
        next = { row, record: Math.min(c.record, Math.max(0, (rs[row]?.log?.offsets.length ?? 1) - 1)) };
        break;
      }
      case 'Home': next = { ...c, record: 0 }; break;
      case 'End': next = { ...c, record: Math.max(0, n - 1) }; break;
      case '+': case '=': zoom(0.5); break;
      case '-': zoom(2); break;
      case '0': fit(); break;
      default: return;
    }
    e.preventDefault();
    e.stopPropagation();
    if (next) {
      cursor.current = next;
      ensureVisible();
      describeCursor();
    }
    dirty.current = true;
  };
  const onLogPointer = (e: PointerEvent<HTMLCanvasElement>) => {
    const L = logLayoutRef.current;
    if (!L) return;
    const [x, y] = canvasPoint(e.currentTarget, L.width, e.clientX, e.clientY);
    const ri = Math.floor((y - L.rowY(0)) / (L.rowY(1) - L.rowY(0)));
    const row = rows.current[ri];
    if (!row?.log || x < L.plotX) return;
    const i = recordAt(row.log, L.offsetAt(x));
    if (i < 0) return;
    if (e.type === 'pointerdown') {
      cursor.current = { row: ri, record: i };
      dirty.current = true;
    }
    setLogReadout(describeRecord(row, i));
  };
  const onIndexKey = (e: KeyboardEvent) => {
    const c = cells.current;
    const L = indexLayoutRef.current;
    if (!c || !L) return;
    const cur = cellCursor.current ?? 0;
    const n = c.valid.length;
    const delta = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : e.key === 'ArrowDown' ? L.cols : e.key === 'ArrowUp' ? -L.cols : null;
    if (delta === null) return;
    e.preventDefault();
    e.stopPropagation();
    cellCursor.current = Math.max(0, Math.min(n - 1, cur + delta));
    setIndexReadout(describeCell(c, cellCursor.current));
    dirty.current = true;
  };
  const onIndexPointer = (e: PointerEvent<HTMLCanvasElement>) => {
    const c = cells.current;
    const L = indexLayoutRef.current;
    if (!c || !L) return;
    const cell = L.cellAt(...canvasPoint(e.currentTarget, L.width, e.clientX, e.clientY));
    if (cell < 0) return;
    if (e.type === 'pointerdown') {
      cellCursor.current = cell;
      dirty.current = true;
    }
    setIndexReadout(describeCell(c, cell));
  };

  const lockPresets: Array<[number, string]> = [[25000, "25 ms (SOSP'09 §3.3.3: 20–30 ms)"], [20, '20 µs (thesis: 5–50 µs)']];

  return (
    <section className="panel live live-fawnds" aria-labelledby="live-heading" onKeyDown={liveKeys(live.togglePlay, live.step)}>
      <h2 id="live-heading">Live FAWN-DS node</h2>
      <LiveControls idPrefix="fawnds" label="Live node controls" playing={live.isPlaying} onPlay={live.setPlay} onStep={live.step}
        onReset={live.reset} speeds={FAWNDS_SPEEDS} speedIndex={live.speedIdx} onSpeed={live.setSpeed} timeNs={snap ? snap.time_ns : null}
        auto={live.auto} />
      <details className="fawnds-setup">
        <summary>Node setup (changing it starts a new node)</summary>
        <div className="live-config">
          <Field id="fawnds-profile" label="device">
            <select id="fawnds-profile" value={config.profile} onChange={(e) => update({ profile: e.target.value })}>
              {PROFILES.map(([id, name]) => <option key={id} value={id}>{name}</option>)}
            </select>
          </Field>
          <Field id="fawnds-stores" label="stores">
            <input id="fawnds-stores" type="number" min={1} max={16} value={config.stores}
              onChange={(e) => update({ stores: Math.round(numberFrom(e.target.value, config.stores)) })} />
          </Field>
          <Field id="fawnds-index-bits" label="index bits (2^i buckets)">
            <input id="fawnds-index-bits" type="number" min={4} max={22} value={config.index_bits}
              onChange={(e) => update({ index_bits: Math.round(numberFrom(e.target.value, config.index_bits)) })} />
          </Field>
          <Field id="fawnds-file-mb" label="file per store (MB)">
            <input id="fawnds-file-mb" type="number" min={1} max={1024} value={config.file_mb}
              onChange={(e) => update({ file_mb: Math.round(numberFrom(e.target.value, config.file_mb)) })} />
          </Field>
          <Field id="fawnds-capacity" label="device capacity (MB)">
            <input id="fawnds-capacity" type="number" min={16} max={2048} value={config.capacity_mb}
              onChange={(e) => update({ capacity_mb: Math.round(numberFrom(e.target.value, config.capacity_mb)) })} />
          </Field>
          <Field id="fawnds-lock" label="maintenance lock">
            <select id="fawnds-lock" value={lockPresets.some(([v]) => v === config.lock_hold_us) ? config.lock_hold_us : 'custom'}
              onChange={(e) => update({ lock_hold_us: Number(e.target.value) })}>
              {lockPresets.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
              {!lockPresets.some(([v]) => v === config.lock_hold_us) && <option value="custom">{config.lock_hold_us} µs</option>}
            </select>
          </Field>
          <Field id="fawnds-cache" label="page cache (MB, 0: none)">
            <input id="fawnds-cache" type="number" min={0} max={1024} value={config.page_cache_mb}
              onChange={(e) => update({ page_cache_mb: Math.round(numberFrom(e.target.value, config.page_cache_mb)) })} />
          </Field>
        </div>
      </details>
      {error && <p className="error" role="alert" data-testid="fawnds-config-error">{error}</p>}
      <FawndsControls snap={snap} store={store} onStore={setStore} onOp={runOp} busy={scriptStatus !== ''} config={config} onConfig={update} />
      {opError && <p className="error" role="alert" data-testid="fawnds-error">{opError}</p>}
      <p className="op-result" aria-live="polite" data-testid="fawnds-result">{scriptStatus || result}</p>

      <div className="fawnds-head">
        <h3>Data logs {snap?.crashed && <><span className="crash-badge">crashed</span> <span className="small muted">the records on flash remain; the DRAM index is gone</span></>}</h3>
        <div className="zoom" role="group" aria-label="Log zoom">
          <button type="button" onClick={() => zoom(0.5)} title="Zoom in (key: +)">Zoom in</button>
          <button type="button" onClick={() => zoom(2)} title="Zoom out (key: −)">Zoom out</button>
          <button type="button" onClick={fit} title="Show every log whole (key: 0)">Fit</button>
        </div>
      </div>
      <div ref={logWrap} className="canvas-wrap">
        <canvas ref={logCanvas} className="fawnds-canvas" tabIndex={0} role="img" data-testid="fawnds-log"
          aria-label="Each store's data log along the log offset axis, records coloured by state. Arrow keys move between records and stores; + and − zoom; 0 fits; space plays or pauses."
          aria-describedby="fawnds-log-readout" onKeyDown={onLogKey} onPointerMove={onLogPointer} onPointerDown={onLogPointer}
          onFocus={() => { if (!cursor.current) { cursor.current = { row: 0, record: 0 }; describeCursor(); dirty.current = true; } }} />
      </div>
      <p id="fawnds-log-readout" className="readout small" aria-live="polite">{logReadout}</p>
      {snap && <MaintenancePanel snap={snap} />}

      <div className="fawnds-two">
        <div ref={indexWrap}>
          <h3>Hash index of store {store}</h3>
          {indexNote && <p className="muted small" data-testid="fawnds-index-note">{indexNote}</p>}
          <canvas ref={indexCanvas} className="fawnds-canvas" tabIndex={0} role="img" data-testid="fawnds-index"
            aria-label="The store's hash index: one square per bucket, filled when valid; the last lookup's probes outlined and numbered. Arrow keys move between buckets."
            aria-describedby="fawnds-index-readout" onKeyDown={onIndexKey} onPointerMove={onIndexPointer} onPointerDown={onIndexPointer} />
          <p id="fawnds-index-readout" className="readout small" aria-live="polite">{indexReadout}</p>
        </div>
        <div>
          <h3>Last lookup</h3>
          {snap && <LookupPanel snap={snap} />}
        </div>
      </div>

      <h3>Queries per second</h3>
      <canvas ref={timeCanvas} className="fawnds-canvas" role="img" data-testid="fawnds-timeline"
        aria-label={`Queries per second over the last seconds of virtual time; maintenance shaded, its lock dark. Now ${snap ? Math.round(snap.counters.qps) : 0} QPS.`} />
      {snap && <FawndsCounters snap={snap} logCounts={logCounts} />}
      {snap && <RecoveryPanel snap={snap} />}
      {snap && <RecentOps snap={snap} />}
    </section>
  );
}
