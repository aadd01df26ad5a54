/**
 * The Vector I/O lab's live block layer (thesis Ch. 6): the core's `vector.block` session (fio
 * on an X25 SSD through the Linux block layer, in the session worker), ticked once a frame
 * (useLiveSession) with its `timeline` columns. The timeline (each I/O's phases Q→G→I→D, the
 * device's time, C; the interrupts as ticks) is painted each frame, the inter-completion
 * histogram a few times a second; the numbers are text beside them. The session's calls are in
 * blockSession.ts.
 */
import { useRef, useState } from 'react';
import type { LiveConfigRecord, LiveRequest } from '../../../app/labModule';
import { LiveControls, liveKeys } from '../../../app/LiveControls';
import { useLiveSession } from '../../../app/useLiveSession';
import { fmt } from '../../../viz/format';
import { SceneCanvas, type SceneCanvasHandle } from '../net/SceneCanvas';
import { BlockControls } from './BlockControls';
import { COMPLETE_COLOUR, DEVICE_COLOUR, IRQ_COLOUR, PHASES } from './blockPalette';
import { blockReadout } from './blockReadout';
import { BLOCK_DEFAULT_SPEED, BLOCK_SESSION, BLOCK_SPEEDS, DEFAULT_WINDOW_US, readTimeline, timelineRequest, WINDOWS_US } from './blockSession';
import type { BlockConfig, BlockSnapshot } from './blockTypes';
import { gapScene } from './gapScene';
import { timelineScene } from './timelineScene';

export interface LiveBlockProps {
  request: LiveRequest | null;
  /** False while the tab is hidden: the view pauses. */
  active: boolean;
  onEdit?: (changed: LiveConfigRecord) => void;
}

/** The histogram repaints at most this often (ms of wall time). */
const CHART_MS = 150;

export function LiveBlock({ request, active, onEdit }: LiveBlockProps) {
  const timeline = useRef<SceneCanvasHandle>(null);
  const gaps = useRef<SceneCanvasHandle>(null);
  const charted = useRef(0);
  const [windowUs, setWindowUs] = useState(DEFAULT_WINDOW_US);
  const windowRef = useRef(windowUs);
  windowRef.current = windowUs;
  const [rows, setRows] = useState(0);

  const live = useLiveSession<BlockConfig, BlockSnapshot>({
    request: request as LiveRequest<BlockConfig> | null,
    onEdit: onEdit as ((changed: Partial<BlockConfig>) => void) | undefined,
    speeds: BLOCK_SPEEDS,
    defaultSpeed: BLOCK_DEFAULT_SPEED,
    playOnScenario: true,
    active,
    session: BLOCK_SESSION,
    views: () => timelineRequest(windowRef.current),
    draw: (sn, now, views) => {
      const tl = readTimeline(views);
      if (tl) {
        timeline.current?.paint((w) => timelineScene(tl, windowRef.current, sn.cpu_busy.length, w));
        setRows((r) => (r === tl.io.length ? r : tl.io.length));
      }
      if (now - charted.current >= CHART_MS || charted.current === 0) {
        charted.current = now;
        gaps.current?.paint((w) => gapScene(sn.gap_hist, w));
      }
    },
    onNew: () => {
      charted.current = 0;
    },
  });
  const { config, update, snap, error } = live;
  const lines = snap ? blockReadout(snap) : [];

  return (
    <div className="live-block" onKeyDown={liveKeys(live.togglePlay, live.step)}>
      <LiveControls idPrefix="vblk" label="Live block layer controls" playing={live.isPlaying} onPlay={live.setPlay} onStep={live.step} ready={live.ready}
        onReset={live.reset} speeds={BLOCK_SPEEDS} speedIndex={live.speedIdx} onSpeed={live.setSpeed} timeNs={snap ? snap.t_ns : null} />
      <BlockControls config={config} onConfig={update} />
      {error && <p className="error" role="alert" data-testid="vector-block-error">{error}</p>}

      {snap && (
        <dl className="counters" aria-live="off" data-testid="vector-block-numbers">
          {lines.map((l) => (
            <div key={l.id}><dt>{l.label}</dt><dd data-counter={l.id}>{l.value}</dd></div>
          ))}
        </dl>
      )}

      <h3>Each I/O's phases on a timeline</h3>
      <label className="small">
        window{' '}
        <select value={windowUs} onChange={(e) => setWindowUs(Number(e.target.value))} data-testid="vector-block-window">
          {WINDOWS_US.map((w) => <option key={w} value={w}>{fmt(w)} µs</option>)}
        </select>
      </label>
      <SceneCanvas ref={timeline} testId="vector-block-timeline" focusable
        label={`The last ${fmt(windowUs)} µs: each CPU's interrupts as ticks with the completions each handled, then one row per I/O: the issue path Q→G, G→I, I→D in colour, the device's time in grey, the completion C as a black mark. ${rows} I/Os in the window. Space: play or pause. Period: step.${snap ? ` ${fmt(Math.round(snap.iops))} IOPS, ${fmt(snap.completions_per_irq)} completions per interrupt.` : ''}`} />
      <div className="legend-row small">
        {PHASES.map((p) => <span key={p.key}><i className="sw" style={{ background: p.colour, borderRadius: 0 }} /> {p.label}</span>)}
        <span><i className="sw" style={{ background: DEVICE_COLOUR, borderRadius: 0 }} /> D→C on the device</span>
        <span><i className="sw" style={{ background: COMPLETE_COLOUR, borderRadius: 0, width: 3 }} /> C completion</span>
        <span><i className="sw" style={{ background: IRQ_COLOUR, borderRadius: 0, width: 3 }} /> interrupt</span>
      </div>

      <h3>Gaps between completions</h3>
      <SceneCanvas ref={gaps} testId="vector-block-gaps"
        label={`Histogram of the gaps between consecutive completions over the recent window, in µs.${snap ? ` ${fmt(Math.round(snap.completions_per_s))} completions per second.` : ''}`} />
    </div>
  );
}
