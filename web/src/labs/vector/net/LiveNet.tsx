/**
 * The Vector I/O lab's live networked back-end: the core's `vector.net` session (in the
 * session worker), ticked once a frame (useLiveSession). The pipeline (every RPC in flight,
 * a vector as one bundle) is painted each frame; where the cores' time goes and the operating
 * point on the latency–throughput plane are painted a few times a second, and their numbers
 * are text beside them (NetPanels). The session's calls beyond ticks are in netSession.ts.
 */
import { useRef, useState } from 'react';
import type { LiveConfigRecord, LiveRequest } from '../../../app/labModule';
import { LiveControls, liveKeys } from '../../../app/LiveControls';
import { useLiveSession } from '../../../app/useLiveSession';
import { fmt } from '../../../viz/format';
import { costScene } from './costScene';
import { NetControls } from './NetControls';
import { CostTable, NetHeadline } from './NetPanels';
import { describeTrace, NET_DEFAULT_SPEED, NET_SPEEDS, traceNext } from './netSession';
import type { NetConfig, NetOp, NetSnapshot, NetTrace } from './netTypes';
import { pipelineScene } from './pipelineScene';
import { planeScene } from './planeScene';
import { SceneCanvas, type SceneCanvasHandle } from './SceneCanvas';

export interface LiveNetProps {
  request: LiveRequest | null;
  /** False while the tab is hidden: the view pauses. */
  active: boolean;
  onEdit?: (changed: LiveConfigRecord) => void;
}

/** The charts below the pipeline repaint at most this often (ms of wall time). */
const CHART_MS = 150;

export function LiveNet({ request, active, onEdit }: LiveNetProps) {
  const pipeline = useRef<SceneCanvasHandle>(null);
  const costs = useRef<SceneCanvasHandle>(null);
  const plane = useRef<SceneCanvasHandle>(null);
  const charted = useRef(0);
  const [trace, setTrace] = useState('');
  const [tracing, setTracing] = useState(false);

  const live = useLiveSession<NetConfig, NetSnapshot, NetOp, NetTrace>({
    request: request as LiveRequest<NetConfig> | null,
    onEdit: onEdit as ((changed: Partial<NetConfig>) => void) | undefined,
    speeds: NET_SPEEDS,
    defaultSpeed: NET_DEFAULT_SPEED,
    playOnScenario: true,
    active,
    session: 'vector.net',
    draw: (sn, now) => {
      pipeline.current?.paint((w) => pipelineScene(sn, w));
      if (now - charted.current >= CHART_MS || charted.current === 0) {
        charted.current = now;
        costs.current?.paint((w) => costScene(sn, w));
        plane.current?.paint((w) => planeScene(sn, w));
      }
    },
    onNew: () => {
      charted.current = 0;
      setTrace('');
    },
  });
  const { config, update, snap, error } = live;

  const runTrace = async () => {
    const s = live.session.current;
    if (!s) return;
    setTracing(true);
    const r = await traceNext(s);
    setTracing(false);
    setTrace(typeof r === 'string' ? r : describeTrace(r));
  };

  const thr = snap ? fmt(snap.rates.throughput_per_s) : '0';
  return (
    <div className="live-net" onKeyDown={liveKeys(live.togglePlay, live.step)}>
      <LiveControls idPrefix="vnet" label="Live back-end controls" playing={live.isPlaying} onPlay={live.setPlay} onStep={live.step} ready={live.ready}
        onReset={live.reset} speeds={NET_SPEEDS} speedIndex={live.speedIdx} onSpeed={live.setSpeed} timeNs={snap ? snap.t_ns : null} />
      <NetControls config={config} onConfig={update} />
      {error && <p className="error" role="alert" data-testid="vector-net-error">{error}</p>}

      <h3>The pipeline</h3>
      <SceneCanvas ref={pipeline} testId="vector-net-pipeline" focusable
        label={`The back-end's pipeline: clients, the wire, NIC and TCP, RPC threads, the intermediate queue, the NVM device's DMA channels, the completion interrupt, the reply and the wire back. Each RPC in flight is a dot, a multiget of several keys one bar. ${snap ? `${snap.inflight.total} RPCs in flight, path ${snap.path}.` : ''}`} />
      <div className="legend-row small">
        <span><i className="sw" style={{ background: '#0072B2' }} /> request (one key)</span>
        <span><i className="sw vnet-bar" style={{ background: '#0072B2' }} /> a vector of G keys (the number on it)</span>
        <span><i className="sw" style={{ background: '#009E73' }} /> reply</span>
        <span><i className="sw" style={{ background: 'rgba(230,159,0,0.4)', borderRadius: 0 }} /> DMA channel busy share</span>
      </div>
      <div className="vnet-trace">
        <button type="button" onClick={() => void runTrace()} disabled={tracing || live.opsBusy}
          title="Run virtual time until the next RPC issued is answered, and list the stages it passed through">Trace the next RPC</button>
      </div>
      <p className="op-result small" aria-live="polite" data-testid="vector-net-trace">{live.opStatus || trace}</p>

      {snap && <NetHeadline snap={snap} />}

      <h3>Latency against throughput</h3>
      <SceneCanvas ref={plane} testId="vector-net-plane"
        label={`The operating point: throughput on a log axis against median latency on a log axis, with the trail of recent points and the reporting rule's lines. Now ${thr} lookups per second${snap && snap.latency_us.rpcs > 0 ? ` at a median of ${fmt(snap.latency_us.p50)} µs` : ''}.`} />
      <h3>Where the cores' time goes</h3>
      <SceneCanvas ref={costs} testId="vector-net-cost"
        label={`Cores busy and core-microseconds per lookup, stacked by cost kind, and each core's busy share. ${snap ? `${fmt(snap.cost.cores_busy)} of ${snap.config.cores} cores busy.` : ''} The table below gives every number.`} />
      {snap && <CostTable snap={snap} />}
    </div>
  );
}
