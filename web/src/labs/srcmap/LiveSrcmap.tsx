/**
 * The SRCMap lab's live view: the core's `srcmap` session (a day of eight volumes on eight disks
 * under a policy, in the session worker) ticked once a frame by useLiveSession. The day clock
 * and the power meter (SrcmapPanels), the bipartite map of volumes and disks (MapView) and the
 * counters and events read the snapshot a few times a second; the power chart (PowerChart) reads
 * the session's "power" view, fetched at most every POWER_EVERY_MS when the session moved. The
 * calls on the session are in srcmapSession.ts, the controls in SrcmapControls.tsx, the words in
 * srcmapReadout.ts.
 */
import { useEffect, useRef, useState } from 'react';
import type { LiveRequest } from '../../app/labModule';
import { LiveControls, liveKeys } from '../../app/LiveControls';
import { useLiveSession } from '../../app/useLiveSession';
import { isCoreError } from '../../model/core';
import { changedFields } from '../../model/scenario';
import { defaultsOf, sessionById } from '../../model/session/schema';
import { fmt } from '../../viz/format';
import { MapView } from './MapView';
import { PowerChart } from './PowerChart';
import { readPower } from './powerScene';
import { LocateForm, SrcmapLevel, SrcmapSetup, TraceUpload } from './SrcmapControls';
import { ChartLegend, CountersTable, DayStrip, EventList, MapLegend } from './SrcmapPanels';
import {
  clockText, dayStatus, diskReadout, intervalLine, locatedDisks, locateText, powerLine, setupSummary, traceText, volumeReadout,
} from './srcmapReadout';
import { applyOp, POWER_EVERY_MS, POWER_VIEW, SRCMAP_DEFAULT_SPEED, SRCMAP_SPEEDS } from './srcmapSession';
import type { LoadTraceResult, LocateResult, PowerSeries, SrcmapLiveConfig, SrcmapOp, SrcmapOpResult, SrcmapSnapshot } from './srcmapTypes';
import './srcmap.css';

let seedNonce = 1_000_000;

const WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
const countWord = (n: number) => WORDS[n] ?? String(n);

export function LiveSrcmap({ request, onEdit }: { request: LiveRequest<SrcmapLiveConfig> | null; onEdit?: (changed: Partial<SrcmapLiveConfig>) => void }) {
  const info = sessionById('srcmap');
  // A scenario's request, or the view's own when the seed changes (the same configuration under another seed).
  const [req, setReq] = useState(request);
  // The fields the user had changed from the page's configuration when the seed changed: the page's
  // link keeps them (useLiveSession reports later edits against the view's own request).
  const carried = useRef<Partial<SrcmapLiveConfig>>({});
  useEffect(() => {
    carried.current = {};
    setReq(request);
  }, [request]);

  const [series, setSeries] = useState<PowerSeries | null>(null);
  const asked = useRef({ at: 0, version: -1 });
  const [focused, setFocused] = useState<string | null>(null);
  const [chartReadout, setChartReadout] = useState('');
  const [result, setResult] = useState('');
  const [opError, setOpError] = useState<string | null>(null);
  const [busy, setBusy] = useState('');
  const [located, setLocated] = useState<{ volume: number; disks: number[] } | null>(null);

  const live = useLiveSession<SrcmapLiveConfig, SrcmapSnapshot, SrcmapOp, SrcmapOpResult>({
    request: req,
    onEdit: onEdit ? (changed) => onEdit({ ...carried.current, ...changed }) : undefined,
    speeds: SRCMAP_SPEEDS,
    defaultSpeed: SRCMAP_DEFAULT_SPEED,
    // A scenario's script runs the day to its point (run_to); the clock then waits for Play, so
    // the point stays on screen until the student moves on.
    playOnScenario: false,
    active: true,
    session: 'srcmap',
    onScript: (_op, r, step) => {
      if (step.error) setOpError(step.error);
      else if (!isCoreError(r)) setResult('');
    },
    draw: (_sn, _now, views) => {
      const pv = views.power;
      if (pv && !isCoreError(pv)) setSeries(readPower(pv));
    },
    views: (now) => {
      const v = live.session.current?.version ?? -1;
      if (now - asked.current.at < POWER_EVERY_MS || v === asked.current.version) return undefined;
      asked.current = { at: now, version: v };
      return [POWER_VIEW];
    },
    onNew: () => {
      asked.current = { at: 0, version: -1 };
      setSeries(null);
      setResult('');
      setOpError(null);
      setLocated(null);
    },
  });
  const { config, update, snap, error } = live;
  const seed = req?.seed ?? 1;

  const setSeed = (s: number) => {
    const page = { ...(info ? defaultsOf(info) : {}), ...(info?.script ? { script: [] } : {}), ...(request?.config ?? {}) };
    carried.current = { ...carried.current, ...(changedFields(config, page) as Partial<SrcmapLiveConfig>) };
    setReq({ config: { ...config }, seed: s, nonce: ++seedNonce });
  };

  const run = async (what: string, op: SrcmapOp): Promise<SrcmapOpResult | null> => {
    const s = live.session.current;
    if (!s) return null;
    setBusy(what);
    const r = await applyOp(s, op);
    setBusy('');
    if (isCoreError(r)) {
      setOpError(r.message);
      return null;
    }
    setOpError(null);
    asked.current = { at: 0, version: -1 };
    return r.result;
  };

  const runTo = async (hour: number) => {
    const r = await run(`Running the day to ${fmt(hour)} h…`, { op: 'run_to', hour });
    if (r) setResult(`Ran the day to ${clockText(typeof r.t_h === 'number' ? r.t_h : hour)}${typeof r.requests === 'number' ? `: ${r.requests.toLocaleString('en-US')} requests on the way` : ''}.`);
  };
  const locate = async (volume: number, offsetMb: number) => {
    live.setPlay(false);
    const r = await run('Locating…', { op: 'locate', volume, offset_mb: offsetMb });
    if (!r) return;
    const lr = r as Partial<LocateResult>;
    setLocated({ volume: typeof lr.volume === 'number' ? lr.volume : volume, disks: locatedDisks(lr) });
    setResult(locateText(snap, lr, offsetMb));
  };
  const loadTrace = async (file: File, historyH: number) => {
    live.setPlay(false);
    setBusy(`Reading ${file.name}…`);
    let csv: string;
    try {
      csv = await file.text();
    } catch (err) {
      setBusy('');
      setOpError(`could not read ${file.name}: ${String(err)}`);
      return;
    }
    const r = await run(`Importing ${file.name}…`, { op: 'load_trace', csv, history_h: historyH });
    if (!r) return;
    setSeries(null);
    setLocated(null);
    setResult(traceText(file.name, r as Partial<LoadTraceResult>));
  };

  const focusText = snap && focused
    ? focused.startsWith('v') ? volumeReadout(snap, Number(focused.slice(1))) : diskReadout(snap, Number(focused.slice(1)))
    : '';
  // Until the session's first snapshot there is no day to run an op on (its setup generates the
  // history and runs the warm-up interval): the op buttons wait (useLiveSession's opsBusy), rather than drop a click.
  const opBusy = busy !== '' || live.opsBusy;

  return (
    <section className="panel live live-srcmap" aria-labelledby="live-heading" onKeyDown={liveKeys(live.togglePlay, live.step)}>
      <h2 id="live-heading">Live SRCMap: a day of {snap ? countWord(snap.volumes.length) : 'eight'} {snap?.volumes.length === 1 ? 'volume' : 'volumes'} on their disks</h2>
      <LiveControls idPrefix="srcmap" label="Live SRCMap controls" playing={live.isPlaying} onPlay={live.setPlay} onStep={live.step} ready={live.ready}
        onReset={live.reset} speeds={SRCMAP_SPEEDS} speedIndex={live.speedIdx} onSpeed={live.setSpeed} timeNs={snap ? snap.t_ns : null} />
      <p className="small muted srcmap-setup-line" data-testid="srcmap-setup-summary">{setupSummary(config, seed)}</p>
      {info && (
        <SrcmapSetup info={info} config={config} onConfig={update} seed={seed} onSeed={setSeed}>
          <SrcmapLevel info={info} config={config} onConfig={update} onRunTo={(h) => void runTo(h)} busy={opBusy} />
        </SrcmapSetup>
      )}
      {error && <p className="error" role="alert" data-testid="srcmap-config-error">{error}</p>}

      <DayStrip snap={snap} />
      <p className="small srcmap-interval" data-testid="srcmap-interval">{snap ? intervalLine(snap) : ''}</p>
      {snap && (snap.done || snap.workload === 'trace') && <p className="small srcmap-status" data-testid="srcmap-status">{dayStatus(snap)}</p>}
      {snap?.error && <p className="error" role="alert" data-testid="srcmap-day-error">{snap.error}</p>}
      {opError && <p className="error" role="alert" data-testid="srcmap-error">{opError}</p>}
      <p className="op-result" aria-live="polite" data-testid="srcmap-result">{busy || live.opStatus || result}</p>

      <h3>Volumes and the disks that hold them</h3>
      {snap && <MapView snap={snap} focused={focused} onFocusNode={setFocused} located={located} />}
      <MapLegend />
      <p className="small srcmap-focus" aria-live="polite" data-testid="srcmap-focus">
        {focusText || 'Focus the map (Tab) and use the arrow keys to read each volume and disk.'}
      </p>

      <h3>Power over the day</h3>
      <PowerChart series={series} refs={{ allOn: snap?.power.all_on_watts ?? null, standby: snap?.power.standby_watts ?? null }} nowH={snap ? snap.t_h : null}
        onReadout={setChartReadout}
        label={`Power over the day: watts per minute as a step line against the all-on and standby lines and the ideal proportional to load, the load on the right axis, spin-ups as marks under the curve (triangle planned, diamond a read miss, bar other I/O). Focus here and use the arrow keys to read a minute.${snap ? ` Now: ${powerLine(snap)}` : ''}`} />
      <ChartLegend />
      <p className="small srcmap-chart-readout" aria-live="polite" data-testid="srcmap-chart-readout">
        {chartReadout || 'Point at the chart (or focus it and use ← →) to read one minute.'}
      </p>

      <div className="srcmap-two">
        <div>
          <h3>Today so far</h3>
          {snap && <CountersTable snap={snap} />}
        </div>
        <div>
          <h3>Recent events</h3>
          <EventList snap={snap} />
        </div>
      </div>

      <h3>Locate a block</h3>
      {info && snap && <LocateForm info={info} volumes={snap.volumes.map((v) => v.name)} onLocate={(v, o) => void locate(v, o)} busy={opBusy} />}
      <h3>Replay your own trace</h3>
      <p className="small muted">A block trace in the MSR Cambridge CSV format (SNIA IOTTA): the hours before the day are the history SRCMap samples, the next 24 h the day it replays. A malformed line is refused by its number.</p>
      {info && <TraceUpload info={info} onTrace={(f, h) => void loadTrace(f, h)} busy={opBusy} />}
    </section>
  );
}
