/**
 * The FAWN-DS lab's live node: a FAWN-DS node's stores on the emulated CF card, crashable, in
 * the core's `fawnds` session (in the session worker), ticked once a frame (useLiveSession).
 * This file hosts the parts: the session's calls (fawndsSession.ts), the setup and operation
 * controls, the log and index canvases (LogCanvas, IndexCanvas, painted from each tick), the
 * timeline and the panels that read the snapshot. The columns come with a tick when the
 * session's version changes, at most a tenth of the time for big logs. A lesson scenario's
 * `script` runs one operation per frame (a big fill in chunks) so the page stays responsive
 * while it loads. The default speed is auto
 * (fawndsSpeed.ts). Records are labelled by the key typed for them where the page knows it.
 */
import { useRef, useState } from 'react';
import { isCoreError } from '../../model/core';
import type { FawndsIndexCells, FawndsLiveConfig, FawndsLog, FawndsOp, FawndsOpResult, FawndsSnapshot } from './fawndsTypes';
import type { ViewRequest } from '../../model/session/client';
import type { Columns } from '../../model/session/protocol';
import type { CoreError } from '../../model/types';
import { paintScene } from '../../viz/canvasScene';
import { timelineScene } from './fawndsTimeline';
import type { LiveRequest } from '../../app/labModule';
import { LiveControls, liveKeys } from '../../app/LiveControls';
import { useLiveSession } from '../../app/useLiveSession';
import { canvasWidth } from '../../app/viewSize';
import { FawndsControls } from './FawndsControls';
import { FawndsCounters, LookupPanel, MaintenancePanel, RecentOps, RecoveryPanel } from './FawndsPanels';
import { FawndsSetup } from './FawndsSetup';
import { describeResult, expandScript } from './fawndsOps';
import { applyOp, columnViews, noteResult, readColumns } from './fawndsSession';
import { FAWNDS_AUTO, FAWNDS_SPEEDS } from './fawndsSpeed';
import { IndexCanvas, type IndexCanvasHandle } from './IndexCanvas';
import { LogCanvas, type LogCanvasHandle } from './LogCanvas';
import { logRows } from './logRows';

export function LiveFawnds({ request, active = true, onEdit }: { request: LiveRequest<FawndsLiveConfig> | null; active?: boolean; onEdit?: (changed: Partial<FawndsLiveConfig>) => void }) {
  /** The columns last read, and the typed keys' names. */
  const logs = useRef(new Map<number, FawndsLog>());
  const cells = useRef<FawndsIndexCells | null>(null);
  const names = useRef(new Map<number, string>());
  /**
   * When the columns were last asked for, at which session version, what the read cost (ms of
   * wall time from asking to having them), and whether a read is on its way.
   */
  const fetched = useRef({ version: -1, at: 0, cost: 0, timeline: 0, inflight: false });
  /** The last tick's snapshot (the columns the next tick fetches follow its stores). */
  const lastSnap = useRef<FawndsSnapshot | null>(null);
  /** Read the columns on the next frame (an operation ran, the store changed, a new session). */
  const force = useRef(true);
  const storeRef = useRef(0);
  const logView = useRef<LogCanvasHandle>(null);
  const indexView = useRef<IndexCanvasHandle>(null);
  const timeCanvas = useRef<HTMLCanvasElement>(null);
  const timeWrap = useRef<HTMLDivElement>(null);

  const [store, setStoreState] = useState(0);
  const [opError, setOpError] = useState<string | null>(null);
  const [result, setResult] = useState('');
  const [logCounts, setLogCounts] = useState<number[] | null>(null);
  const [indexNote, setIndexNote] = useState('');

  const setStore = (s: number) => {
    storeRef.current = s;
    setStoreState(s);
    force.current = true;
  };

  const live = useLiveSession<FawndsLiveConfig, FawndsSnapshot, FawndsOp, FawndsOpResult>({
    request,
    onEdit,
    speeds: FAWNDS_SPEEDS,
    defaultSpeed: 0,
    auto: FAWNDS_AUTO,
    playOnScenario: true,
    active,
    session: 'fawnds',
    expandScript,
    onScript: (_op, r, step) => {
      noteResult(r, names.current);
      if (step.error) setOpError(step.error);
      force.current = true;
    },
    draw: (sn, now, views) => frame(sn, now, views),
    views: (now) => columnsWanted(now),
    onNew: () => {
      logs.current.clear();
      cells.current = null;
      fetched.current.version = -1;
      fetched.current.inflight = false;
      lastSnap.current = null;
      force.current = true;
      logView.current?.reset();
      indexView.current?.reset();
      names.current.clear();
      storeRef.current = 0;
      setStoreState(0);
      setResult('');
      setOpError(null);
    },
  });
  const { config, update, snap, error } = live;

  /**
   * The columns the next tick fetches: when an operation or the store forces it, or the version
   * changed. Columns cost time in proportion to the records (about 0.1 s for a million): ask at
   * most every 60 ms, spending at most a tenth of the time on them; none while a read is on its way.
   */
  const columnsWanted = (now: number): ViewRequest[] | undefined => {
    const sn = lastSnap.current;
    const f = fetched.current;
    const v = live.session.current?.version ?? -1;
    if (!sn || f.inflight) return undefined;
    if (!force.current && !(v !== f.version && now - f.at > Math.max(60, 10 * f.cost))) return undefined;
    force.current = false;
    f.version = v;
    f.at = now;
    f.inflight = true;
    return columnViews(sn, storeRef.current);
  };

  /** Takes the columns a tick brought into the refs and the counters' state. */
  const takeColumns = (sn: FawndsSnapshot, views: Record<string, Columns | CoreError>) => {
    const c = readColumns(views, sn, storeRef.current);
    if (c.stale) force.current = true;
    logs.current = c.logs;
    cells.current = c.cells;
    setLogCounts((prev) => (prev && prev.join() === c.counts.join() ? prev : c.counts));
    if (c.store !== storeRef.current) {
      storeRef.current = c.store;
      setStoreState(c.store);
    }
    setIndexNote(c.indexNote);
  };

  function frame(sn: FawndsSnapshot, now: number, views: Record<string, Columns | CoreError>) {
    lastSnap.current = sn;
    const f = fetched.current;
    if (f.inflight && Object.keys(views).length > 0) {
      f.inflight = false;
      f.cost = Math.max(0, now - f.at - 1000 / 60);  // the read, less the frame a tick takes anyway
      takeColumns(sn, views);
      paintViews(sn, true);
    } else {
      paintViews(sn, false);
    }
    if (now - f.timeline > 100 && timeCanvas.current) {
      f.timeline = now;
      paintScene(timeCanvas.current, timelineScene(sn.timeline, sn.time_ns, canvasWidth(timeWrap.current, 800)), window.devicePixelRatio || 1);
    }
  }

  /** Paints the log and the index: `force` after a read of the columns, else where a view asked for it. */
  const paintViews = (sn: FawndsSnapshot, force: boolean) => {
    logView.current?.draw(() => logRows(sn, logs.current, names.current), sn.crashed, force);
    indexView.current?.draw(cells.current, storeRef.current, sn.last_lookup, force);
  };

  const runOp = async (op: FawndsOp) => {
    const s = live.session.current;
    if (!s) return;
    const r = await applyOp(s, op, names.current);
    force.current = true;
    if (isCoreError(r)) {
      setOpError(r.message);
      return;
    }
    setOpError(null);
    const maintenance = (op.op === 'compact' || op.op === 'split' || op.op === 'merge') && !r.result.finished;
    setResult(describeResult(op, r.result, live.isPlaying || maintenance));
    if ((op.op === 'put' || op.op === 'get' || op.op === 'delete') && r.result.store !== undefined && r.result.store >= 0) setStore(r.result.store);
    if (maintenance && !live.isPlaying) live.setPlay(true);
  };

  return (
    <section className="panel live live-fawnds" aria-labelledby="live-heading" onKeyDown={liveKeys(live.togglePlay, live.step)}>
      <h2 id="live-heading">Live FAWN-DS node</h2>
      <LiveControls idPrefix="fawnds" label="Live node controls" playing={live.isPlaying} onPlay={live.setPlay} onStep={live.step} ready={live.ready}
        onReset={live.reset} speeds={FAWNDS_SPEEDS} speedIndex={live.speedIdx} onSpeed={live.setSpeed} timeNs={snap ? snap.time_ns : null}
        auto={live.auto} />
      <FawndsSetup config={config} onConfig={update} />
      {error && <p className="error" role="alert" data-testid="fawnds-config-error">{error}</p>}
      <FawndsControls snap={snap} store={store} onStore={setStore} onOp={runOp} busy={live.opsBusy} config={config} onConfig={update} />
      {opError && <p className="error" role="alert" data-testid="fawnds-error">{opError}</p>}
      <p className="op-result" aria-live="polite" data-testid="fawnds-result">{live.opStatus || result}</p>

      <LogCanvas ref={logView} crashed={snap?.crashed ?? false} />
      {snap && <MaintenancePanel snap={snap} />}

      <div className="fawnds-two">
        <IndexCanvas ref={indexView} store={store} note={indexNote} />
        <div>
          <h3>Last lookup</h3>
          {snap && <LookupPanel snap={snap} />}
        </div>
      </div>

      <h3>Queries per second</h3>
      <div ref={timeWrap} className="canvas-wrap">
        <canvas ref={timeCanvas} className="fawnds-canvas" role="img" data-testid="fawnds-timeline"
          aria-label={`Queries per second over the last seconds of virtual time; maintenance shaded, its lock dark. Now ${snap ? Math.round(snap.counters.qps) : 0} QPS.`} />
      </div>
      {snap && <FawndsCounters snap={snap} logCounts={logCounts} />}
      {snap && <RecoveryPanel snap={snap} />}
      {snap && <RecentOps snap={snap} />}
    </section>
  );
}
