/**
 * The FAWN-DS lab's live node: a FAWN-DS node's stores on the emulated CF card, crashable,
 * stepped from requestAnimationFrame (useLiveSession). This file hosts the parts: the session's
 * calls (fawndsSession.ts), the setup and operation controls, the log and index canvases
 * (LogCanvas, IndexCanvas, painted from each frame), the timeline and the panels that read the
 * snapshot. The columns are fetched when the session's version changes, at most a tenth of the
 * time for big logs. A lesson scenario's `script` runs one operation per frame (a big fill in
 * chunks) so the page stays responsive while it loads. The default speed is auto
 * (fawndsSpeed.ts). Records are labelled by the key typed for them where the page knows it.
 */
import { useRef, useState } from 'react';
import { isCoreError } from '../../model/core';
import type { FawndsIndexCells, FawndsLiveConfig, FawndsLog, FawndsOp, FawndsSnapshot } from '../../model/fawndsTypes';
import { paintScene } from '../../viz/canvasScene';
import { timelineScene } from '../../viz/fawndsTimeline';
import type { LiveRequest } from '../../app/labModule';
import { LiveControls, liveKeys } from '../../app/LiveControls';
import { ScriptQueue, scriptedCreate } from '../../app/scriptQueue';
import { useLiveSession } from '../../app/useLiveSession';
import { canvasWidth } from '../../app/viewSize';
import { FawndsControls } from './FawndsControls';
import { FawndsCounters, LookupPanel, MaintenancePanel, RecentOps, RecoveryPanel } from './FawndsPanels';
import { FawndsSetup } from './FawndsSetup';
import { DEFAULT_FAWNDS, describeResult, expandScript } from './fawndsOps';
import { applyOp, openFawnds, readColumns, type LiveFawndsSession } from './fawndsSession';
import { FAWNDS_AUTO, FAWNDS_SPEEDS } from './fawndsSpeed';
import { IndexCanvas, type IndexCanvasHandle } from './IndexCanvas';
import { LogCanvas, type LogCanvasHandle } from './LogCanvas';
import { logRows } from './logRows';

export function LiveFawnds({ request, active = true, onEdit }: { request: LiveRequest<FawndsLiveConfig> | null; active?: boolean; onEdit?: (changed: Partial<FawndsLiveConfig>) => void }) {
  const sess = useRef<LiveFawndsSession | null>(null);
  const script = useRef(new ScriptQueue<FawndsOp>());
  /** The columns last read, and the typed keys' names. */
  const logs = useRef(new Map<number, FawndsLog>());
  const cells = useRef<FawndsIndexCells | null>(null);
  const names = useRef(new Map<number, string>());
  /** When the columns were last read, at which session version, and what the read cost (ms). */
  const fetched = useRef({ version: -1, at: 0, cost: 0, timeline: 0 });
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
  const [scriptStatus, setScriptStatus] = useState('');
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
    create: scriptedCreate(openFawnds, sess, script.current, expandScript),
    structural: (c) => ({ profile: c.profile, capacity_mb: c.capacity_mb, stores: c.stores, index_bits: c.index_bits, file_mb: c.file_mb,
      lock_hold_us: c.lock_hold_us, page_cache_mb: c.page_cache_mb, script: c.script }),
    running: (c) => ({ value_bytes: c.value_bytes, load_rate_per_s: c.load_rate_per_s, load_put_fraction: c.load_put_fraction, load_keys: c.load_keys }),
    draw: (sn, now) => frame(sn, now),
    onNew: () => {
      logs.current.clear();
      cells.current = null;
      fetched.current.version = -1;
      force.current = true;
      logView.current?.reset();
      indexView.current?.reset();
      names.current.clear();
      storeRef.current = 0;
      setStoreState(0);
      setResult('');
      setOpError(null);
      setScriptStatus('');
    },
  });
  const { config, update, snap, error } = live;

  /** Reads the columns into the refs and the counters' state. */
  const fetchColumns = (s: LiveFawndsSession, sn: FawndsSnapshot) => {
    const c = readColumns(s, sn, storeRef.current);
    logs.current = c.logs;
    cells.current = c.cells;
    setLogCounts((prev) => (prev && prev.join() === c.counts.join() ? prev : c.counts));
    if (c.store !== storeRef.current) {
      storeRef.current = c.store;
      setStoreState(c.store);
    }
    setIndexNote(c.indexNote);
  };

  function frame(sn: FawndsSnapshot, now: number) {
    const s = sess.current;
    if (!s) return;
    const stepped = script.current.step({ apply: (op: FawndsOp) => applyOp(s, op, names.current) });
    if (stepped) {
      if (stepped.error) setOpError(stepped.error);
      setScriptStatus(stepped.status);
      force.current = true;
      return;
    }
    const v = s.version();
    const f = fetched.current;
    // Columns cost time in proportion to the records (about 0.1 s for a million in the
    // browser): fetch at most every 60 ms, and spend at most a tenth of the time on it.
    const fresh = force.current || (v !== f.version && now - f.at > Math.max(60, 10 * f.cost));
    if (fresh) {
      force.current = false;
      f.version = v;
      f.at = now;
      const t0 = performance.now();
      fetchColumns(s, sn);
      paintViews(sn, true);
      f.cost = performance.now() - t0;
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

  const runOp = (op: FawndsOp) => {
    const s = sess.current;
    if (!s) return;
    const r = applyOp(s, op, names.current);
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
      <LiveControls idPrefix="fawnds" label="Live node controls" playing={live.isPlaying} onPlay={live.setPlay} onStep={live.step}
        onReset={live.reset} speeds={FAWNDS_SPEEDS} speedIndex={live.speedIdx} onSpeed={live.setSpeed} timeNs={snap ? snap.time_ns : null}
        auto={live.auto} />
      <FawndsSetup config={config} onConfig={update} />
      {error && <p className="error" role="alert" data-testid="fawnds-config-error">{error}</p>}
      <FawndsControls snap={snap} store={store} onStore={setStore} onOp={runOp} busy={scriptStatus !== ''} config={config} onConfig={update} />
      {opError && <p className="error" role="alert" data-testid="fawnds-error">{opError}</p>}
      <p className="op-result" aria-live="polite" data-testid="fawnds-result">{scriptStatus || result}</p>

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
