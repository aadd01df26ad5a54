/**
 * The live queue: the core's queues session (in the session worker), ticked once a frame and
 * drawn by renderQueueView. Play, pause, step one event, and slow-motion speed; the arrival rate,
 * service time and distribution change a running queue, the number of servers starts a new
 * one. Counters beside the view come from the session's snapshot, with the theory for the
 * current setting (M/M/k, or M/D/1).
 */
import { useRef } from 'react';
import type { LiveConfig, QueueSnapshot } from './queueTypes';
import { fmt, fmtNs } from '../../viz/format';
import { QueueAnimator, queueLayoutFor, renderQueueView } from './queueView';
import type { Speed } from '../../app/LiveControls';
import type { LiveRequest } from '../../app/labModule';
import { useLiveSession } from '../../app/useLiveSession';
import { QueueFields } from './QueueFields';

/** Virtual nanoseconds per wall-clock second at each speed. */
const SPEEDS: Speed[] = [
  { label: '10 µs per second', nsPerSec: 10_000 },
  { label: '50 µs per second', nsPerSec: 50_000 },
  { label: '200 µs per second', nsPerSec: 200_000 },
  { label: '1 ms per second', nsPerSec: 1_000_000 },
  { label: '10 ms per second', nsPerSec: 10_000_000 },
  { label: '100 ms per second', nsPerSec: 100_000_000 },
];

export function LiveQueue({ request, onEdit }: { request: LiveRequest<LiveConfig> | null; onEdit?: (changed: Partial<LiveConfig>) => void }) {
  const svgRef = useRef<SVGSVGElement>(null);
  const animator = useRef(new QueueAnimator());
  const live = useLiveSession<LiveConfig, QueueSnapshot>({
    request,
    onEdit,
    // The view opens at ρ = 0.6 (the core's default rate gives 0.5).
    defaults: { arrival_rate_per_s: 60000 },
    speeds: SPEEDS,
    defaultSpeed: 1,
    active: true,
    session: 'queues',
    draw: (sn, now) => {
      if (!svgRef.current) return;
      const view = queueLayoutFor(svgRef.current.clientWidth);
      renderQueueView(svgRef.current, animator.current.frame(sn, now, 0.5, view), sn, view);
    },
    onNew: () => animator.current.reset(),
  });
  const { config, update, snap, error, isPlaying, setPlay, step, speedIdx } = live;
  const rho = (config.arrival_rate_per_s * config.service_us) / 1e6 / config.servers;
  const c = snap?.counters;
  const th = snap?.theory;

  return (
    <section className="panel live" aria-labelledby="live-heading"
      onKeyDown={(e) => {
        if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
        if (e.key === ' ') { e.preventDefault(); live.togglePlay(); }
        else if (e.key === '.') { e.preventDefault(); step(); }
      }}>
      <h2 id="live-heading">Live queue</h2>
      <div className="live-controls" role="group" aria-label="Live queue controls">
        <button type="button" className="primary" onClick={() => setPlay(!isPlaying)} aria-pressed={isPlaying}>
          {isPlaying ? 'Pause' : 'Play'}
        </button>
        <button type="button" onClick={step} title="Run the next event (key: .)">Step</button>
        <button type="button" onClick={live.reset}>Reset</button>
        <label htmlFor="live-speed">speed</label>
        <select id="live-speed" value={speedIdx} onChange={(e) => live.setSpeed(Number(e.target.value))}>
          {SPEEDS.map((s, i) => <option key={s.label} value={i}>{s.label}</option>)}
        </select>
        <span className="muted small">virtual time {snap ? fmtNs(snap.now_ns) : '—'}</span>
      </div>
      <QueueFields config={config} update={update}>
        <span className={rho >= 1 ? 'rho over' : 'rho'}>ρ = λS/k = {rho.toFixed(3)}{rho >= 1 ? ' — overloaded' : ''}</span>
      </QueueFields>
      {error && <p className="error" role="alert">{error}</p>}
      <svg ref={svgRef} className="queue-svg" role="img" tabIndex={0}
        aria-label="Requests arriving at the left, waiting in the queue, served by the servers and leaving at the right. Space: play or pause. Period: step." />
      <div className="legend-row small">
        <span><i className="sw waiting" /> waiting</span>
        <span><i className="sw serving" /> in service (ring: progress)</span>
        <span><i className="sw done" /> done</span>
      </div>
      {c && th && (
        <dl className="counters" aria-live="off">
          <div><dt>arrived / done / dropped</dt><dd>{c.arrived} / {c.completed} / {c.dropped}</dd></div>
          <div><dt>throughput X</dt><dd>{fmt(c.throughput_per_s)} /s</dd></div>
          <div><dt>mean response R</dt><dd>{fmt(c.mean_response_us)} µs{th.mean_response_us !== undefined && <span className="muted"> (theory {fmt(th.mean_response_us)})</span>}</dd></div>
          <div><dt>p50 / p99 response</dt><dd>{fmt(c.p50_response_us)} / {fmt(c.p99_response_us)} µs</dd></div>
          <div><dt>L (time average)</dt><dd>{fmt(c.mean_in_system)}<span className="muted"> vs X·R = {fmt(c.littles_x_times_r)}</span></dd></div>
          <div><dt>utilisation</dt><dd>{fmt(c.utilisation)}<span className="muted"> (ρ = {fmt(th.rho)})</span></dd></div>
        </dl>
      )}
    </section>
  );
}
