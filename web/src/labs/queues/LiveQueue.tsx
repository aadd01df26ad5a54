/**
 * The live queue: a QueueSession in the core, stepped from requestAnimationFrame and drawn by
 * renderQueueView. Play, pause, step one event, and slow-motion speed; the arrival rate,
 * service time and distribution change a running queue, the number of servers starts a new
 * one. Counters beside the view come from the session's snapshot, with the theory for the
 * current setting (M/M/k, or M/D/1).
 */
import { useEffect, useRef, useState } from 'react';
import type { LiveQueueSession } from '../../model/core';
import { isCoreError } from '../../model/core';
import { changedFields } from '../../model/scenario';
import type { LiveConfig, QueueSnapshot } from '../../model/types';
import { fmt, fmtNs } from '../../viz/format';
import { QueueAnimator, queueLayoutFor, renderQueueView } from '../../viz/queueView';
import { useCore } from '../../app/coreContext';
import type { LiveRequest } from '../../app/labModule';

/** Virtual nanoseconds per wall-clock second at each speed. */
const SPEEDS: Array<{ label: string; nsPerSec: number }> = [
  { label: '10 µs per second', nsPerSec: 10_000 },
  { label: '50 µs per second', nsPerSec: 50_000 },
  { label: '200 µs per second', nsPerSec: 200_000 },
  { label: '1 ms per second', nsPerSec: 1_000_000 },
  { label: '10 ms per second', nsPerSec: 10_000_000 },
  { label: '100 ms per second', nsPerSec: 100_000_000 },
];

const DEFAULT_CONFIG: Required<LiveConfig> = {
  servers: 1,
  arrival_rate_per_s: 60000,
  service_us: 10,
  service: 'exponential',
  queue_limit: 1000,
};

export function LiveQueue({ request, onEdit }: { request: LiveRequest<LiveConfig> | null; onEdit?: (changed: Partial<LiveConfig>) => void }) {
  const { core } = useCore();
  const svgRef = useRef<SVGSVGElement>(null);
  const session = useRef<LiveQueueSession | null>(null);
  const animator = useRef(new QueueAnimator());
  const playing = useRef(false);
  const speed = useRef(SPEEDS[1]!.nsPerSec);
  const [config, setConfig] = useState<Required<LiveConfig>>(DEFAULT_CONFIG);
  const [seed, setSeed] = useState(1);
  const [isPlaying, setPlaying] = useState(false);
  const [speedIdx, setSpeedIdx] = useState(1);
  const [snap, setSnap] = useState<QueueSnapshot | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  /** The configuration last taken (defaults or a scenario's) and whether the user changed it since. */
  const base = useRef<Required<LiveConfig>>(DEFAULT_CONFIG);
  const edited = useRef(false);
  const onEditRef = useRef(onEdit);
  onEditRef.current = onEdit;

  // A scenario from the lesson replaces the configuration and restarts the queue.
  useEffect(() => {
    if (!request) return;
    base.current = { ...DEFAULT_CONFIG, ...request.config } as Required<LiveConfig>;
    edited.current = false;
    setConfig(base.current);
    setSeed(request.seed);
    setGeneration((g) => g + 1);
  }, [request]);

  // A new session whenever the structure changes (servers, queue limit, seed) or on reset.
  useEffect(() => {
    if (!core) return;
    const s = core.createQueueSession(config, String(seed));
    if (isCoreError(s)) {
      setError(s.message);
      return;
    }
    setError(null);
    session.current = s;
    animator.current.reset();
    setSnap(s.snapshot());
    return () => {
      s.dispose();
      if (session.current === s) session.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- rate and service are applied in place below
  }, [core, config.servers, config.queue_limit, seed, generation]);

  // The user's changes go to the page's URL.
  useEffect(() => {
    if (!edited.current) return;
    edited.current = false;
    onEditRef.current?.(changedFields(config, base.current));
  }, [config]);

  // Rate and service changes apply to the running queue.
  useEffect(() => {
    const s = session.current;
    if (!s) return;
    const msg = s.reconfigure({ arrival_rate_per_s: config.arrival_rate_per_s, service_us: config.service_us, service: config.service });
    setError(msg || null);
  }, [config.arrival_rate_per_s, config.service_us, config.service]);

  // The animation loop: advance virtual time while playing; always ease the dots.
  useEffect(() => {
    let raf = 0;
    let last = performance.now();
    let lastUi = 0;
    const tick = (now: number) => {
      const s = session.current;
      const dtMs = Math.min(100, now - last);
      last = now;
      if (s && svgRef.current) {
        if (playing.current) s.advance((dtMs / 1000) * speed.current, 200_000);
        const sn = s.snapshot();
        const view = queueLayoutFor(svgRef.current.clientWidth);
        renderQueueView(svgRef.current, animator.current.frame(sn, now, 0.5, view), sn, view);
        if (now - lastUi > 200) {
          lastUi = now;
          setSnap(sn);
        }
      }
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, []);

  const setPlay = (p: boolean) => {
    playing.current = p;
    setPlaying(p);
  };
  const step = () => {
    setPlay(false);
    session.current?.step();
    if (session.current) setSnap(session.current.snapshot());
  };
  const update = (patch: Partial<Required<LiveConfig>>) => {
    edited.current = true;
    setConfig((c) => ({ ...c, ...patch }));
  };
  const num = (text: string, fallback: number) => {
    const v = Number(text);
    return Number.isFinite(v) && text.trim() !== '' ? v : fallback;
  };
  const rho = (config.arrival_rate_per_s * config.service_us) / 1e6 / config.servers;
  const c = snap?.counters;
  const th = snap?.theory;

  return (
    <section className="panel live" aria-labelledby="live-heading"
      onKeyDown={(e) => {
        if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
        if (e.key === ' ') { e.preventDefault(); setPlay(!playing.current); }
        else if (e.key === '.') { e.preventDefault(); step(); }
      }}>
      <h2 id="live-heading">Live queue</h2>
      <div className="live-controls" role="group" aria-label="Live queue controls">
        <button type="button" className="primary" onClick={() => setPlay(!isPlaying)} aria-pressed={isPlaying}>
          {isPlaying ? 'Pause' : 'Play'}
        </button>
        <button type="button" onClick={step} title="Run the next event (key: .)">Step</button>
        <button type="button" onClick={() => { setPlay(false); setGeneration((g) => g + 1); }}>Reset</button>
        <label htmlFor="live-speed">speed</label>
        <select id="live-speed" value={speedIdx} onChange={(e) => {
          const i = Number(e.target.value);
          setSpeedIdx(i);
          speed.current = SPEEDS[i]!.nsPerSec;
        }}>
          {SPEEDS.map((s, i) => <option key={s.label} value={i}>{s.label}</option>)}
        </select>
        <span className="muted small">virtual time {snap ? fmtNs(snap.now_ns) : '—'}</span>
      </div>
      <div className="live-config">
        <label>servers k
          <input type="number" min={1} max={16} value={config.servers}
            onChange={(e) => update({ servers: Math.round(num(e.target.value, config.servers)) })} />
        </label>
        <label>arrivals λ (k/s)
          <input type="number" min={1} step={1} value={config.arrival_rate_per_s / 1000}
            onChange={(e) => update({ arrival_rate_per_s: num(e.target.value, config.arrival_rate_per_s / 1000) * 1000 })} />
        </label>
        <label>mean service S (µs)
          <input type="number" min={0.1} step={0.5} value={config.service_us}
            onChange={(e) => update({ service_us: num(e.target.value, config.service_us) })} />
        </label>
        <label>service
          <select value={config.service} onChange={(e) => update({ service: e.target.value as 'exponential' | 'deterministic' })}>
            <option value="exponential">exponential</option>
            <option value="deterministic">deterministic</option>
          </select>
        </label>
        <span className={rho >= 1 ? 'rho over' : 'rho'}>ρ = λS/k = {rho.toFixed(3)}{rho >= 1 ? ' — overloaded' : ''}</span>
      </div>
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
