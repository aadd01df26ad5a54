/**
 * The CONA lab's live store: the core's `cona` session (in the session worker) ticked once a
 * frame (useLiveSession), its background load a YCSB workload. The structure canvas
 * (StructureCanvas: buffers, levels, cells, the merge, the last lookup's path) is painted from
 * every tick; the panels (ConaPanels) read the snapshot a few times a second: the lookup step
 * by step, recent events, the counters and each cell's memory. The calls on the session are in
 * conaSession.ts, the controls in ConaControls.tsx.
 */
import { useRef, useState } from 'react';
import type { LiveRequest } from '../../app/labModule';
import { LiveControls, liveKeys } from '../../app/LiveControls';
import { useLiveSession } from '../../app/useLiveSession';
import { isCoreError } from '../../model/core';
import { fmt } from '../../viz/format';
import { sessionById } from '../../model/session/schema';
import { CONA, STEP_STYLES } from './conaPalette';
import { cellDetail, describeResult, isCrashed, loadLine, mergeLine, structureSummary } from './conaReadout';
import { applyOp, CONA_DEFAULT_SPEED, CONA_SPEEDS, expandScript, FLIP_MARK_S } from './conaSession';
import type { Columns } from '../../model/session/protocol';
import type { CoreError } from '../../model/types';
import type { ConaLiveConfig, ConaOp, ConaOpResult, ConaSnapshot } from './conaTypes';
import { TimelineCanvas, type TimelineCanvasHandle } from './TimelineCanvas';
import { readTimeline } from './timelineScene';
import { ConaLoadFields, ConaOps, ConaStoreSetup } from './ConaControls';
import { CellTable, CountersTable, EventList, LookupPanel } from './ConaPanels';
import { StructureCanvas, type Picked, type StructureCanvasHandle } from './StructureCanvas';
import { lookupCells, lookupStale } from './structureScene';
import './cona.css';

export function LiveCona({ request, onEdit }: { request: LiveRequest<ConaLiveConfig> | null; onEdit?: (changed: Partial<ConaLiveConfig>) => void }) {
  const structure = useRef<StructureCanvasHandle>(null);
  const speedNs = useRef(CONA_SPEEDS[CONA_DEFAULT_SPEED]!.nsPerSec);
  const [picked, setPicked] = useState<Picked | null>(null);
  const [result, setResult] = useState('');
  const [opError, setOpError] = useState<string | null>(null);
  /** The last lookup (as JSON) and the cells it passed when it was made; whether they have changed since. */
  const lookupAt = useRef({ key: '', cells: [] as number[] });
  const staleRef = useRef(false);
  const [stale, setStale] = useState(false);
  const info = sessionById('cona');

  const timeline = useRef<TimelineCanvasHandle>(null);
  /** When the timeline's columns were last asked for, at which session version. */
  const asked = useRef({ at: 0, version: -1 });

  const frame = (sn: ConaSnapshot, views: Record<string, Columns | CoreError>) => {
    const tl = views.timeline;
    if (tl && !isCoreError(tl)) timeline.current?.paint(readTimeline(tl), sn.t_ns, sn.events);
    else timeline.current?.fit();
    const key = sn.last_lookup ? JSON.stringify(sn.last_lookup) : '';
    if (key !== lookupAt.current.key) lookupAt.current = { key, cells: lookupCells(sn) };
    const now = key !== '' && lookupStale(sn, lookupAt.current.cells);
    if (now !== staleRef.current) {
      staleRef.current = now;
      setStale(now);
    }
    structure.current?.paint(sn, speedNs.current * FLIP_MARK_S, now);
  };

  const live = useLiveSession<ConaLiveConfig, ConaSnapshot, ConaOp, ConaOpResult>({
    request,
    onEdit,
    speeds: CONA_SPEEDS,
    defaultSpeed: CONA_DEFAULT_SPEED,
    playOnScenario: true,
    active: true,
    session: 'cona',
    expandScript,
    onScript: (op, r, step) => {
      if (step.error) setOpError(step.error);
      else if (!isCoreError(r)) setResult(describeResult(op, r.result));
    },
    draw: (sn, _now, views) => frame(sn, views),
    // The timeline's columns (a minute of 50 ms samples) at most four times a second, when they changed.
    views: (now) => {
      const v = live.session.current?.version ?? -1;
      if (now - asked.current.at < 250 || v === asked.current.version) return undefined;
      asked.current = { at: now, version: v };
      return [{ name: 'timeline', key: 'timeline' }];
    },
    onNew: () => {
      lookupAt.current = { key: '', cells: [] };
      asked.current = { at: 0, version: -1 };
      timeline.current?.paint(null, 0, []);
      setResult('');
      setOpError(null);
    },
  });
  const { config, update, snap, error } = live;
  const crashed = snap ? isCrashed(snap) : false;

  const runOp = async (op: ConaOp) => {
    const s = live.session.current;
    if (!s) return;
    // A lookup's path is drawn on the structure it went through: the clock stops so the merges do not move it on.
    if (op.op === 'get') live.setPlay(false);
    const r = await applyOp(s, op);
    if (isCoreError(r)) {
      setOpError(r.message);
      return;
    }
    setOpError(null);
    setResult(describeResult(op, r.result));
  };

  const setSpeed = (i: number) => {
    speedNs.current = CONA_SPEEDS[i]!.nsPerSec;
    live.setSpeed(i);
  };

  return (
    <section className="panel live live-cona" aria-labelledby="live-heading" onKeyDown={liveKeys(live.togglePlay, live.step)}>
      <h2 id="live-heading">Live CONA store</h2>
      <LiveControls idPrefix="cona" label="Live store controls" playing={live.isPlaying} onPlay={live.setPlay} onStep={live.step} ready={live.ready}
        onReset={live.reset} speeds={CONA_SPEEDS} speedIndex={live.speedIdx} onSpeed={setSpeed} timeNs={snap ? snap.t_ns : null} />
      {info && <ConaStoreSetup info={info} config={config} onConfig={update} />}
      {error && <p className="error" role="alert" data-testid="cona-config-error">{error}</p>}
      {info && <ConaOps info={info} onOp={(op) => void runOp(op)} busy={live.opsBusy} crashed={crashed} />}
      {opError && <p className="error" role="alert" data-testid="cona-error">{opError}</p>}
      <p className="op-result" aria-live="polite" data-testid="cona-result">{live.opStatus || result}</p>

      <StructureCanvas ref={structure} onPick={setPicked}
        label={`The CONA structure: the two insertion buffers as sorted bars, then the levels, each a row of two visible cells and the shadow. ${snap ? structureSummary(snap) : ''} Point at a cell, or focus here and use the arrow keys, for its memory.`} />
      <p className="small cona-picked" aria-live="polite" data-testid="cona-picked">
        {snap && picked ? cellDetail(picked.level, picked.slot, snap) : 'Point at a cell (or focus the picture and use the arrow keys) for its entries and its trie and fragment memory.'}
      </p>
      <p className="small cona-status" data-testid="cona-merge">{snap ? mergeLine(snap) || 'No merge running.' : ''}</p>
      <div className="legend-row small cona-legend">
        <span><i className="sw sq" style={{ background: CONA.buffer }} /> buffer fill, <i className="sw tick" style={{ background: CONA.bufferTick }} /> sampled keys by prefix</span>
        <span><i className="sw sq" style={{ background: CONA.cell }} /> visible cell (width: capacity, log scale)</span>
        <span><i className="sw sq" style={{ background: CONA.consumed }} /> merged below, dropped at the flip</span>
        <span><i className="sw sq dashed" style={{ background: CONA.shadow }} /> shadow, filling as its merge streams in</span>
        <span><i className="sw sq outline" style={{ borderColor: CONA.flip }} /> just flipped</span>
        <span><i className="sw sq outline dashed" style={{ borderColor: CONA.waiting }} /> frozen buffer waiting</span>
        <span><i className="sw" style={{ background: STEP_STYLES.found.fill }} /> lookup found, <i className="sw" style={{ background: STEP_STYLES.falsePositive.fill }} /> false positive,{' '}
          <i className="sw" style={{ background: STEP_STYLES.readMiss.fill }} /> read, not there, <i className="sw ring" /> passed without a read;
          each read labelled with where it came from (page cache or flash)</span>
      </div>
      {info && <ConaLoadFields info={info} config={config} onConfig={update} />}
      <p className="small cona-status" data-testid="cona-load">{snap ? loadLine(snap) : ''}</p>

      <div className="cona-two">
        <div>
          <h3>Last lookup</h3>
          {snap && <LookupPanel snap={snap} stale={stale} />}
        </div>
        <div>
          <h3>Recent events</h3>
          {snap && <EventList snap={snap} />}
        </div>
      </div>
      <h3>Write and read IOPS over the last minute</h3>
      <TimelineCanvas ref={timeline}
        label={`Write IOPS and read IOPS per 50 ms sample over the last minute of virtual time, as the thesis reports them (operations per second of the time spent in them), flips marked.${snap ? ` Now ${fmt(snap.counters.write_iops)} write IOPS and ${fmt(snap.counters.read_iops)} read IOPS.` : ''}`} />
      <div className="cona-two">
        <div>
          <h3>Counters</h3>
          {snap && <CountersTable snap={snap} />}
        </div>
        <div>
          <h3>Cells: trie and fragment memory</h3>
          {snap && <CellTable snap={snap} />}
        </div>
      </div>
    </section>
  );
}
