/**
 * The Stores lab's live view: the core's `stores` session (in the session worker) ticked once
 * a frame (useLiveSession); every chosen store on its own machine over one simulator, all fed
 * the same operation stream. Each store's structure canvas (StoreCards) and the shared rates
 * chart (IopsChart, its history kept by iopsHistory.ts) are painted from every tick; the text
 * panels (StoresPanels: the counters table, the last get per store, the events) read the
 * snapshot a few times a second. The calls on the session are in storesSession.ts, the
 * controls in StoresControls.tsx.
 */
import { useRef, useState } from 'react';
import type { LiveRequest } from '../../app/labModule';
import { LiveControls, liveKeys } from '../../app/LiveControls';
import { useLiveSession } from '../../app/useLiveSession';
import { isCoreError } from '../../model/core';
import { sessionById } from '../../model/session/schema';
import { addSample, emptyHistory } from './iopsHistory';
import { IopsChart, type IopsChartHandle } from './IopsChart';
import { StoreCards, type StoreCanvasHandle } from './StoreCards';
import { StoresLoadFields, StoresOps, StoresSetup } from './StoresControls';
import { ChartLegend, CountersTable, EventList, GetTable } from './StoresPanels';
import { ST } from './storesPalette';
import { describeResult, loadLine, setupSummary } from './storesReadout';
import { applyOp, expandScript, STORES_DEFAULT_SPEED, STORES_SPEEDS } from './storesSession';
import type { StoresLiveConfig, StoresOp, StoresOpResult, StoresSnapshot } from './storesTypes';
import './stores.css';

export function LiveStores({ request, onEdit }: { request: LiveRequest<StoresLiveConfig> | null; onEdit?: (changed: Partial<StoresLiveConfig>) => void }) {
  const cards = useRef(new Map<string, StoreCanvasHandle>());
  const chart = useRef<IopsChartHandle>(null);
  const history = useRef(emptyHistory());
  const [result, setResult] = useState('');
  const [opError, setOpError] = useState<string | null>(null);
  const [readout, setReadout] = useState('');
  const info = sessionById('stores');

  const frame = (sn: StoresSnapshot) => {
    for (const s of sn.stores) cards.current.get(s.kind)?.paint(s.structure);
    history.current = addSample(history.current, sn);
    chart.current?.paint(history.current);
  };

  const live = useLiveSession<StoresLiveConfig, StoresSnapshot, StoresOp, StoresOpResult>({
    request,
    onEdit,
    speeds: STORES_SPEEDS,
    defaultSpeed: STORES_DEFAULT_SPEED,
    playOnScenario: true,
    active: true,
    session: 'stores',
    expandScript,
    onScript: (op, r, step) => {
      if (step.error) setOpError(step.error);
      else if (!isCoreError(r)) setResult(describeResult(op, r.result));
    },
    draw: (sn) => frame(sn),
    onNew: () => {
      history.current = emptyHistory();
      chart.current?.paint(history.current);
      setResult('');
      setOpError(null);
    },
  });
  const { config, update, snap, error } = live;

  const runOp = async (op: StoresOp) => {
    const s = live.session.current;
    if (!s) return;
    const r = await applyOp(s, op);
    if (isCoreError(r)) {
      setOpError(r.message);
      return;
    }
    setOpError(null);
    setResult(describeResult(op, r.result));
  };

  const latest = snap && snap.stores.length > 0
    ? ` Now ${snap.stores.map((s) => `${s.label} ${Math.round(s.write_iops)} write and ${Math.round(s.read_iops)} read IOPS`).join('; ')}.`
    : '';

  return (
    <section className="panel live live-stores" aria-labelledby="live-heading" onKeyDown={liveKeys(live.togglePlay, live.step)}>
      <h2 id="live-heading">Live stores, side by side</h2>
      <LiveControls idPrefix="stores" label="Live stores controls" playing={live.isPlaying} onPlay={live.setPlay} onStep={live.step} ready={live.ready}
        onReset={live.reset} speeds={STORES_SPEEDS} speedIndex={live.speedIdx} onSpeed={live.setSpeed} timeNs={snap ? snap.t_ns : null} />
      <p className="small muted stores-setup-line" data-testid="stores-setup-summary">{setupSummary(config)}</p>
      {info && <StoresSetup info={info} config={config} onConfig={update} />}
      {error && <p className="error" role="alert" data-testid="stores-config-error">{error}</p>}
      {info && <StoresLoadFields info={info} config={config} onConfig={update} />}
      {info && <StoresOps info={info} onOp={(op) => void runOp(op)} busy={live.opsBusy} />}
      {opError && <p className="error" role="alert" data-testid="stores-error">{opError}</p>}
      <p className="op-result" aria-live="polite" data-testid="stores-result">{live.opStatus || result}</p>
      <p className="small stores-load" data-testid="stores-load">{snap ? loadLine(snap) : ''}</p>

      {snap && <StoreCards snap={snap} handles={cards} />}
      <div className="legend-row small stores-structure-legend">
        <span><i className="sw sq" style={{ background: ST.data }} /> stored (fill: entries or bytes against capacity)</span>
        <span><i className="sw sq dashed" style={{ background: ST.work }} /> background work: a merge’s shadow, a conversion, a compaction, a flush</span>
        <span><i className="sw sq" style={{ background: ST.over }} /> an LSM level past its target (the black tick)</span>
        <span><i className="sw sq" style={{ background: ST.garbage }} /> FAWN-DS garbage</span>
        <span><i className="sw sq" style={{ background: ST.dirty }} /> B+tree dirty pages</span>
      </div>

      <h3>Counters</h3>
      {snap && <CountersTable snap={snap} />}

      <div className="stores-two">
        <div>
          <h3>Last get</h3>
          {snap && <GetTable snap={snap} />}
        </div>
        <div>
          <h3>Recent background events</h3>
          {snap && <EventList snap={snap} />}
        </div>
      </div>

      <h3>Write and read IOPS over the last minute</h3>
      {snap && <ChartLegend snap={snap} />}
      <IopsChart ref={chart} readout={setReadout}
        label={`Write IOPS and read IOPS of each store over the last minute of virtual time, one line per store. Focus here and use the arrow keys to read the rates at a moment.${latest}`} />
      <p className="small readout" aria-live="polite" data-testid="stores-iops-readout">
        {readout || 'Point at the chart (or focus it and use ← →) to read every store’s rates at one moment.'}
      </p>
    </section>
  );
}
