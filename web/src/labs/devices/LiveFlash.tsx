/**
 * The live flash device: the core's devices.flash session (an SSD or CF card behind its FTL, shrunk
 * to a few dozen erase blocks; in the session worker), ticked once a frame and drawn by
 * renderFlashView. The profile, the number of blocks, pages per block and the spare fraction
 * start a new device; the workload, streams and queue depth change the running one. Counters
 * beside the view come from the session's snapshot.
 */
import { useRef } from 'react';
import type { FlashConfig, FlashSnapshot } from './deviceTypes';
import { FlashAnimator, renderFlashView } from './flashView';
import { fmt } from '../../viz/format';
import { LiveControls, liveKeys, type Speed } from '../../app/LiveControls';
import type { LiveRequest } from '../../app/labModule';
import { useLiveSession } from '../../app/useLiveSession';
import { FlashFields } from './FlashFields';

/**
 * Virtual time per wall-clock second: a page program takes hundreds of µs and an erase ms,
 * so the slow speeds show single operations; the shrunk SSD fills in a few hundred ms and
 * the CF card merges for ms per write, so the fast ones show the collector's steady state.
 */
export const FLASH_SPEEDS: Speed[] = [
  { label: '100 µs per second', nsPerSec: 100_000 },
  { label: '1 ms per second', nsPerSec: 1_000_000 },
  { label: '10 ms per second', nsPerSec: 10_000_000 },
  { label: '100 ms per second', nsPerSec: 100_000_000 },
  { label: '1 s per second', nsPerSec: 1_000_000_000 },
  { label: '10 s per second', nsPerSec: 10_000_000_000 },
];
const DEFAULT_SPEED = 3;

export function LiveFlash({ request, active = true, onEdit }: { request: LiveRequest<FlashConfig> | null; active?: boolean; onEdit?: (changed: Partial<FlashConfig>) => void }) {
  const svgRef = useRef<SVGSVGElement>(null);
  const animator = useRef(new FlashAnimator());
  const live = useLiveSession<FlashConfig, FlashSnapshot>({
    request,
    onEdit,
    speeds: FLASH_SPEEDS,
    defaultSpeed: DEFAULT_SPEED,
    active,
    session: 'devices.flash',
    draw: (sn, now) => {
      if (svgRef.current) renderFlashView(svgRef.current, animator.current.frame(sn, now), sn);
    },
    onNew: () => animator.current.reset(),
  });
  const { config, update, snap, error } = live;
  const c = snap?.counters;

  return (
    <section className="live-device" aria-labelledby="flash-heading" onKeyDown={liveKeys(live.togglePlay, live.step)}>
      <h3 id="flash-heading">Flash behind its FTL</h3>
      <LiveControls idPrefix="flash" label="Live flash controls" playing={live.isPlaying} onPlay={live.setPlay} onStep={live.step} ready={live.ready}
        onReset={live.reset} speeds={FLASH_SPEEDS} speedIndex={live.speedIdx} onSpeed={live.setSpeed}
        timeNs={snap ? snap.time_ns : null} />
      <FlashFields config={config} update={update} />
      {error && <p className="error" role="alert">{error}</p>}
      <svg ref={svgRef} className="device-svg flash-svg" role="img" tabIndex={0} style={snap === null && error !== null ? { display: 'none' } : undefined}
        aria-label="The flash device's erase blocks, grouped by chip: each cell is a page (free, valid or invalid); the number under a block is its erase count. Garbage-collection copies fly from the victim block to the block open for collector copies. Space: play or pause. Period: step." />
      {c && (
        <dl className="counters" aria-live="off">
          <div><dt>host writes</dt><dd data-counter="host_writes">{c.host_writes.toLocaleString('en-US')} ({fmt(c.host_bytes / 1e6)} MB)</dd></div>
          <div><dt>write amplification</dt><dd data-counter="write_amplification" title="bytes programmed on flash ÷ bytes the host wrote">{c.write_amplification.toFixed(2)}<span className="muted"> media ÷ host</span></dd></div>
          <div><dt>erases</dt><dd data-counter="erases">{c.erases.toLocaleString('en-US')}</dd></div>
          <div><dt>GC page moves</dt><dd data-counter="gc_moves">{c.gc_moves.toLocaleString('en-US')}</dd></div>
          <div><dt>GC stalls</dt><dd data-counter="gc_stalls">{c.gc_stalls.toLocaleString('en-US')}<span className="muted"> ({fmt(c.gc_stall_ms)} ms waiting)</span></dd></div>
          <div><dt>host throughput</dt><dd data-counter="host_mb_s">{fmt(c.host_mb_s)} MB/s<span className="muted"> (last 200)</span></dd></div>
          <div><dt>mean write latency</dt><dd data-counter="mean_write_us">{fmt(c.mean_write_us)} µs<span className="muted"> (last 200)</span></dd></div>
          <div><dt>energy</dt><dd data-counter="joules">{fmt(c.joules)} J</dd></div>
        </dl>
      )}
    </section>
  );
}
