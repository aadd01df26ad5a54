/**
 * The live disk: the core's devices.disk session (a platter, a head on its arm, a request queue
 * and the power states; in the session worker), ticked once a frame and drawn by renderDiskView. The
 * profile starts a new disk; the workload, request rate, scheduler, spin-down timeout and
 * request size change the running one. Counters beside the view come from the snapshot.
 */
import { useRef } from 'react';
import type { DiskConfig, DiskSnapshot } from './deviceTypes';
import { renderDiskView } from './diskView';
import { fmt } from '../../viz/format';
import { LiveControls, liveKeys, type Speed } from '../../app/LiveControls';
import type { LiveRequest } from '../../app/labModule';
import { useLiveSession } from '../../app/useLiveSession';
import { DiskFields } from './DiskFields';

/**
 * Virtual time per wall-clock second: a turn takes 6–11 ms and a seek a few ms, so the slow
 * speeds show the mechanics; spin-down waits seconds and spin-up takes seconds, so the fast
 * ones show the power states.
 */
export const DISK_SPEEDS: Speed[] = [
  { label: '1 ms per second', nsPerSec: 1_000_000 },
  { label: '10 ms per second', nsPerSec: 10_000_000 },
  { label: '100 ms per second', nsPerSec: 100_000_000 },
  { label: '1 s per second', nsPerSec: 1_000_000_000 },
  { label: '10 s per second', nsPerSec: 10_000_000_000 },
  { label: '1 min per second', nsPerSec: 60_000_000_000 },
];
const DEFAULT_SPEED = 1;

export function LiveDisk({ request, active = true, onEdit }: { request: LiveRequest<DiskConfig> | null; active?: boolean; onEdit?: (changed: Partial<DiskConfig>) => void }) {
  const svgRef = useRef<SVGSVGElement>(null);
  const live = useLiveSession<DiskConfig, DiskSnapshot>({
    request,
    onEdit,
    speeds: DISK_SPEEDS,
    defaultSpeed: DEFAULT_SPEED,
    active,
    session: 'devices.disk',
    draw: (sn) => {
      if (svgRef.current) renderDiskView(svgRef.current, sn);
    },
  });
  const { config, update, snap, error } = live;
  const c = snap?.counters;

  return (
    <section className="live-device" aria-labelledby="disk-heading" onKeyDown={liveKeys(live.togglePlay, live.step)}>
      <h3 id="disk-heading">Disk</h3>
      <LiveControls idPrefix="disk" label="Live disk controls" playing={live.isPlaying} onPlay={live.setPlay} onStep={live.step} ready={live.ready}
        onReset={live.reset} speeds={DISK_SPEEDS} speedIndex={live.speedIdx} onSpeed={live.setSpeed}
        timeNs={snap ? snap.time_ns : null} />
      <DiskFields config={config} update={update} />
      {error && <p className="error" role="alert">{error}</p>}
      <svg ref={svgRef} className="device-svg disk-svg" role="img" tabIndex={0} style={snap === null && error !== null ? { display: 'none' } : undefined}
        aria-label="The disk seen from above: the head on its arm seeks to a request's track, then waits for its sector to turn under it; queued requests are numbered dots; a badge shows the power state and watts. Space: play or pause. Period: step." />
      {c && (
        <dl className="counters" aria-live="off">
          <div><dt>requests completed</dt><dd data-counter="completed">{c.completed.toLocaleString('en-US')}</dd></div>
          <div><dt>response mean / p99</dt><dd data-counter="response">{fmt(c.mean_ms)} / {fmt(c.p99_ms)} ms</dd></div>
          <div><dt>mean seek</dt><dd data-counter="mean_seek_ms">{fmt(c.mean_seek_ms)} ms</dd></div>
          <div><dt>mean rotational wait</dt><dd data-counter="mean_rotate_ms">{fmt(c.mean_rotate_ms)} ms</dd></div>
          <div><dt>mean transfer</dt><dd data-counter="mean_transfer_ms">{fmt(c.mean_transfer_ms)} ms</dd></div>
          <div><dt>spin-ups</dt><dd data-counter="spin_ups">{c.spin_ups.toLocaleString('en-US')}<span className="muted"> ({fmt(c.standby_s)} s in standby)</span></dd></div>
          <div><dt>energy</dt><dd data-counter="joules">{fmt(c.joules)} J</dd></div>
          <div><dt>average power</dt><dd data-counter="avg_watts">{fmt(c.avg_watts)} W</dd></div>
        </dl>
      )}
    </section>
  );
}
