/**
 * The FAWN-KV lab's live cluster: the core's fawnkv session (back-ends on a consistent-hashing
 * ring, front-ends, chain replication, joins, leaves and failures; in the session worker),
 * ticked once a frame through useLiveSession. The ring's VIDs and chains come as columns with
 * a tick when the snapshot's `ring_version` changes, and are drawn every frame by the shared
 * ring host (RingCanvas: hover, pin and keyboard focus). A scenario's `script` runs one
 * operation per frame.
 * The default speed is auto (fawnkvAutoMode): slow motion for joins, leaves and repairs, a
 * fast-forward while a failure waits to be noticed.
 */
import { useRef, useState } from 'react';
import { isCoreError } from '../../model/core';
import type { FawnkvLiveConfig, FawnkvOp, FawnkvOpResult, FawnkvSnapshot, FawnkvVids } from './fawnkvTypes';
import type { Columns } from '../../model/session/protocol';
import type { CoreError } from '../../model/types';
import { paintScene } from '../../viz/canvasScene';
import { kvTimelineScene } from './fawnkvTimeline';
import { fmtNs } from '../../viz/format';
import { indexRing, type RingIndex } from '../../viz/ringModel';
import { FawnkvControls, FawnkvSetup } from './FawnkvControls';
import { CheckVerdict, ClusterLine, EventLog, JoinList, NodeTable } from './FawnkvPanels';
import type { AutoMode, AutoPolicy } from '../../app/autoSpeed';
import { AUTO_SPEED, LiveControls, liveKeys, speedsOf, type Speed } from '../../app/LiveControls';
import type { LiveRequest } from '../../app/labModule';
import { RingCanvas, type RingCanvasHandle } from '../../app/RingCanvas';
import { useLiveSession } from '../../app/useLiveSession';

/**
 * Virtual time per wall second: at 1 ms/s a LAN hop of about 100 µs takes a tenth of a second.
 * The default, auto, cruises at 100 ms/s, shows a membership change at 10 ms/s (a repair of
 * a few hundred keys takes about 25 ms of virtual time, a Fig 13 join about 250 ms; the clock
 * speeds up after 1.5 s of slow motion) and fast-forwards at 1 s/s through the 1.5–2 s of
 * missed heartbeats (3 × 500 ms by default) before a failure is noticed.
 */
export const FAWNKV_SPEEDS: Speed[] = [AUTO_SPEED, ...speedsOf([1e5, 1e6, 1e7, 1e8, 1e9])];

/** The auto speed's reading of a snapshot; `inRing(id)`: whether back-end id still has VIDs in the ring. */
export function fawnkvAutoMode(snap: FawnkvSnapshot, busy: boolean, inRing: (id: number) => boolean): AutoMode {
  const joining = snap.nodes.filter((n) => n.state === 'joining').map((n) => n.id);
  const leaving = snap.nodes.filter((n) => n.state === 'leaving').map((n) => n.id);
  const unnoticed = snap.nodes.filter((n) => n.state === 'failed' && inRing(n.id)).map((n) => n.id);
  const list = (ids: number[]) => `node${ids.length === 1 ? '' : 's'} ${ids.join(', ')}`;
  if (busy) {
    if (joining.length > 0) return { kind: 'slow', what: `join of ${list(joining)} in progress` };
    if (leaving.length > 0) return { kind: 'slow', what: `leave of ${list(leaving)} in progress` };
    return { kind: 'slow', what: 'repair after a failure in progress' };
  }
  if (unnoticed.length > 0) return { kind: 'fast', what: `waiting for the front-end to miss ${list(unnoticed)}'s heartbeats` };
  return { kind: 'cruise', what: '' };
}

/** One line saying what an operation did. */
export function describeKvResult(op: FawnkvOp, r: FawnkvOpResult): string {
  const t = r.latency_ns !== undefined ? ` in ${fmtNs(r.latency_ns)}` : '';
  const chain = r.chain?.length ? r.chain.join(' → ') : '';
  switch (op.op) {
    case 'put':
      if (r.result === 'refused') return `put “${op.key}” refused: the head's store has no room (not applied)${t}`;
      if (r.result === 'timeout') return `put “${op.key}”: no answer in time (it may or may not have taken effect)${t}`;
      return `put “${op.key}” → chain ${chain} (head first): acknowledged by the tail${t}`;
    case 'get':
      if (r.cache_hit) return `get “${op.key}” → “${r.value}” from the front-end's cache${t}`;
      return `get “${op.key}” → ${r.found ? `“${r.value}”` : 'not found'} from the tail ${r.chain?.at(-1) ?? ''} of chain ${chain}${t}`;
    case 'add-node':
      return `node ${r.id} is joining: each of its VIDs pre-copies its ranges from their tails, then the chains take it in`;
    case 'remove-node':
      return `node ${op.id} is leaving: its ranges' chains re-form without it and new members copy what it held`;
    case 'fail-node':
      return `node ${op.id} has failed: it stops answering; the front-end notices after missed heartbeats`;
    case 'fill':
      return `put keys k${op.from ?? 0} … k${(op.from ?? 0) + op.count - 1}`;
    case 'check': {
      const c = r.check;
      if (!c) return 'checker ran';
      return c.violations === 0
        ? `checker: every get returned the latest acknowledged put (${c.operations.toLocaleString('en-US')} operations on ${c.keys.toLocaleString('en-US')} keys)`
        : `checker: ${c.violations} violation${c.violations === 1 ? '' : 's'} in ${c.operations.toLocaleString('en-US')} operations`;
    }
  }
}

export function LiveFawnkv({ request, active = true, onEdit }: { request: LiveRequest<FawnkvLiveConfig> | null; active?: boolean; onEdit?: (changed: Partial<FawnkvLiveConfig>) => void }) {
  const ring = useRef<RingIndex | null>(null);
  const ringVersion = useRef(-1);
  /** The ring version of the last snapshot, and whether the VIDs are on their way. */
  const seenVersion = useRef(-1);
  const vidsInFlight = useRef(false);
  const lastTimeline = useRef(0);
  const ringView = useRef<RingCanvasHandle>(null);
  const timeCanvas = useRef<HTMLCanvasElement>(null);

  const [opError, setOpError] = useState<string | null>(null);
  const [result, setResult] = useState('');
  const [shares, setShares] = useState<RingIndex['shares'] | null>(null);
  const [ringError, setRingError] = useState<string | null>(null);

  const autoPolicy: AutoPolicy<FawnkvSnapshot> = {
    slowNsPerSec: 1e7,
    cruiseNsPerSec: 1e8,
    fastNsPerSec: 1e9,
    mode: (sn, busy) => fawnkvAutoMode(sn, busy, (id) => ring.current?.shares.has(id) ?? true),
  };
  const live = useLiveSession<FawnkvLiveConfig, FawnkvSnapshot, FawnkvOp, FawnkvOpResult>({
    request,
    onEdit,
    speeds: FAWNKV_SPEEDS,
    defaultSpeed: 0,
    auto: autoPolicy,
    playOnScenario: true,
    active,
    session: 'fawnkv',
    onScript: (_op, _r, step) => {
      if (step.error) setOpError(step.error);
    },
    draw: (sn, now, views) => frame(sn, now, views),
    // The ring's VIDs and chains, fetched again when the snapshot's ring_version changes.
    views: () => {
      if (vidsInFlight.current || seenVersion.current < 0 || seenVersion.current === ringVersion.current) return undefined;
      vidsInFlight.current = true;
      return [{ name: 'vids' }];
    },
    onNew: () => {
      ring.current = null;
      ringVersion.current = -1;
      seenVersion.current = -1;
      vidsInFlight.current = false;
      setShares(null);
      setResult('');
      setOpError(null);
    },
  });
  const { config, update, snap, error } = live;

  function frame(sn: FawnkvSnapshot, now: number, views: Record<string, Columns | CoreError>) {
    seenVersion.current = sn.ring_version;
    const v = views.vids;
    if (v) {
      vidsInFlight.current = false;
      if (isCoreError(v)) {
        setRingError(v.message);
      } else {
        const vids = v as unknown as FawnkvVids;
        ring.current = indexRing(vids);
        ringVersion.current = vids.version;
        setShares(ring.current.shares);
        setRingError(null);
      }
    }
    const r = ring.current;
    if (!r) return;
    const width = ringView.current?.paint({ ring: r, ringKey: String(ringVersion.current), replication: sn.replication, nodes: sn.nodes,
      frontEnds: sn.front_ends, nowNs: sn.now_ns, messages: sn.messages, joins: sn.joins }) ?? 0;
    if (width > 0 && now - lastTimeline.current > 100 && timeCanvas.current) {
      lastTimeline.current = now;
      paintScene(timeCanvas.current, kvTimelineScene(sn.timeline, sn.now_ns, Math.min(width, 760)), window.devicePixelRatio || 1);
    }
  }

  const runOp = async (op: FawnkvOp) => {
    const s = live.session.current;
    if (!s) return;
    const r = await s.apply(op);
    if (isCoreError(r)) {
      setOpError(r.message);
      return;
    }
    setOpError(null);
    setResult(describeKvResult(op, r.result));
    const head = r.result.chain?.[0];
    if (head && ring.current?.byName.has(head)) ringView.current?.focusVid(head, true);
    if ((op.op === 'add-node' || op.op === 'remove-node' || op.op === 'fail-node') && !live.isPlaying) live.setPlay(true);
  };

  return (
    <section className="panel live live-fawnkv" aria-labelledby="live-heading" onKeyDown={liveKeys(live.togglePlay, live.step)}>
      <h2 id="live-heading">Live FAWN-KV cluster</h2>
      <LiveControls idPrefix="fawnkv" label="Live cluster controls" playing={live.isPlaying} onPlay={live.setPlay} onStep={live.step} ready={live.ready}
        onReset={live.reset} speeds={FAWNKV_SPEEDS} speedIndex={live.speedIdx} onSpeed={live.setSpeed} timeNs={snap ? snap.now_ns : null}
        auto={live.auto} />
      <FawnkvSetup config={config} onConfig={update} />
      {error && <p className="error" role="alert" data-testid="fawnkv-config-error">{error}</p>}
      {!snap && <p className="op-result" aria-live="polite" data-testid="fawnkv-starting">{live.opStatus}</p>}
      {snap && (
        <>
          <FawnkvControls snap={snap} busy={live.opsBusy} config={config} onConfig={update} onOp={runOp} />
          {opError && <p className="error" role="alert" data-testid="fawnkv-error">{opError}</p>}
          <p className="op-result" aria-live="polite" data-testid="fawnkv-result">{live.opStatus || result}</p>
          <CheckVerdict check={snap.check} />

          <h3>The ring</h3>
          {ringError && <p className="error" role="alert">{ringError}</p>}
          <RingCanvas ref={ringView} testId="fawnkv-ring" readoutId="fawnkv-ring-readout"
            ariaLabel="The consistent-hashing ring: each VID a tick coloured by its node, each range an arc, front-end wedges outside, messages moving between front-ends in the centre and back-ends on the ring. Arrow keys move between VIDs; Enter pins one; Escape lets go; space plays or pauses." />

          <ClusterLine snap={snap} />
          <canvas ref={timeCanvas} className="fawnds-canvas" role="img" data-testid="fawnkv-timeline"
            aria-label={`Cluster queries per second and watts over the last seconds of virtual time. Now ${Math.round(snap.qps)} queries per second at ${Math.round(snap.watts)} W.`} />
          <NodeTable snap={snap} shares={shares} />
          <h3>Joins and re-replication</h3>
          <JoinList snap={snap} />
          <h3>Events</h3>
          <EventLog snap={snap} />
        </>
      )}
    </section>
  );
}
