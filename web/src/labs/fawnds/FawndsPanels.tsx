/**
 * The FAWN-DS lab's text panels beside the canvases: the last lookup (hash arithmetic, the
 * probe sequence as a table, the flash reads it caused), the running maintenance operation
 * and its lock, the last recovery's report, the live counters and the recent operations.
 * All of it comes from one snapshot.
 */
import type { FawndsSnapshot } from './fawndsTypes';
import { fmt, fmtBytes, fmtNs } from '../../viz/format';
import { PROBE_COLOURS } from './fawndsIndexView';

const hex = (v: number, digits: number) => `0x${v.toString(16).padStart(digits, '0')}`;

export function LookupPanel({ snap }: { snap: FawndsSnapshot }) {
  const l = snap.last_lookup;
  if (!l) return <p className="muted small">Put, get or delete a key to see its probe sequence and the flash reads it causes.</p>;
  const bits = snap.config.index_bits;
  const probes = l.probes;
  const unit = snap.device.unit_bytes;
  return (
    <div className="lookup" data-testid="fawnds-lookup">
      <p className="small">
        <strong>{l.op} “{l.key}”</strong>: SHA-1 key <code>{l.key_hex.slice(0, 12)}…{l.key_hex.slice(-8)}</code> → store {l.store};{' '}
        INDEX = low {bits} bits = {hex(l.index, Math.ceil(bits / 4))} ({l.index}); KEYFRAG = next 15 bits = {hex(l.fragment, 4)}.{' '}
        {probes.length} probe{probes.length === 1 ? '' : 's'}, {l.reads.length} flash read{l.reads.length === 1 ? '' : 's'}
        {l.reads.some((r) => r.false_positive) ? ` (${l.reads.filter((r) => r.false_positive).length} false positive)` : ''}
        {l.queued ? '; held behind a maintenance lock' : ''}.
      </p>
      <div className="probe-table-wrap">
        <table className="metrics probe-table">
          <caption>Probe sequence (bucket_j = INDEX + j·step mod 2^{bits})</caption>
          <thead><tr><th>j</th><th>bucket</th><th>valid</th><th>fragment</th><th>log offset</th><th>what happened</th></tr></thead>
          <tbody>
            {probes.slice(0, 8).map(([j, b, valid, frag, off, outcome]) => (
              <tr key={j}>
                <td className="num">{j}</td>
                <td className="num">{b}</td>
                <td>{valid ? 1 : 0}</td>
                <td><code>{valid ? hex(frag, 4) : '—'}</code></td>
                <td className="num">{valid ? off.toLocaleString('en-US') : '—'}</td>
                <td><span className="sw-sq" style={{ borderColor: PROBE_COLOURS[outcome] }} />{outcome}</td>
              </tr>
            ))}
            {probes.length > 8 && (
              <tr><td colSpan={6} className="muted">… {probes.length - 8} more probes ({probes.slice(8).filter((p) => p[5] === 'empty').length} empty,{' '}
                {probes.slice(8).filter((p) => p[5] === 'other').length} other fragments): a miss checks all 32</td></tr>
            )}
          </tbody>
        </table>
      </div>
      {l.reads.length > 0 && (
        <ul className="small reads">
          {l.reads.map((r, i) => (
            <li key={i}>
              flash read {i + 1}: {r.bytes} bytes at log offset {r.log_offset.toLocaleString('en-US')} = device offset{' '}
              {r.device_offset.toLocaleString('en-US')} (flash page {Math.floor(r.device_offset / unit).toLocaleString('en-US')}) —{' '}
              {r.false_positive ? <strong className="fp">another key: a false positive</strong> : 'the key: a hit'}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function MaintenancePanel({ snap }: { snap: FawndsSnapshot }) {
  const m = snap.maintenance;
  if (!m.running) {
    const lock = snap.timeline.locks.at(-1);
    return (
      <p className="small" data-testid="fawnds-maintenance">
        {m.last_result ? `Last maintenance: ${m.last_result}.` : 'No maintenance running.'}
        {m.last_result && lock ? ` Its lock held requests for ${fmtNs(lock[1] - lock[0])}.` : ''}
      </p>
    );
  }
  const into = m.destination === snap.stores.filter((s) => s.role !== 'building').length ? 'a new store' : `store ${m.destination}`;
  const left = m.locked ? Math.max(0, m.lock_started_ns + m.lock_hold_ns - snap.time_ns) : 0;
  return (
    <div className="small maintenance" data-testid="fawnds-maintenance">
      <p>
        <strong>{m.kind}</strong> of store {m.source} into {into}: scanned {fmtBytes(m.scanned)} of {fmtBytes(m.source_end)};{' '}
        copied {m.copied.toLocaleString('en-US')} records, left behind {m.skipped.toLocaleString('en-US')}.
      </p>
      <progress max={Math.max(1, m.source_end)} value={m.scanned} aria-label={`${m.kind} scan progress`} />
      {m.locked ? (
        <p className="lock-note" role="status"><strong>Locked</strong>: the scan caught up; the store list swaps after the lock ({fmtNs(m.lock_hold_ns)}; {fmtNs(left)} left).
          {' '}{m.queued} request{m.queued === 1 ? '' : 's'} held.</p>
      ) : (
        <p className="muted">Reads and writes continue while the scan runs; new records keep landing in the source and are copied too.</p>
      )}
    </div>
  );
}

export function RecoveryPanel({ snap }: { snap: FawndsSnapshot }) {
  const r = snap.recovery;
  if (!r) return null;
  return (
    <table className="metrics" data-testid="fawnds-recovery">
      <caption>
        Last recovery: {fmtNs(r.duration_ns)} of device time, from datastore list #{r.list_seq}
        {r.restricted > 0 ? ` (${r.restricted} index entries outside their store's listed range dropped)` : ''}
      </caption>
      <thead><tr><th>file slot</th><th>range</th><th>index from</th><th>records replayed</th><th>log end</th><th>replay stopped at</th></tr></thead>
      <tbody>
        {r.stores.map((f) => (
          <tr key={f.slot}>
            <td className="num">{f.slot}</td>
            <td><code>{f.range}</code></td>
            <td>{f.from_checkpoint ? `checkpoint ${f.checkpoint_seq}` : 'no checkpoint: the whole log'}</td>
            <td className="num">{f.replayed_records.toLocaleString('en-US')}</td>
            <td className="num">{fmtBytes(f.log_end)}</td>
            <td>{f.end_reason}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function FawndsCounters({ snap, logCounts }: { snap: FawndsSnapshot; logCounts: number[] | null }) {
  const c = snap.counters;
  const records = snap.stores.reduce((n, s) => n + (s.role === 'building' ? 0 : s.records), 0);
  return (
    <dl className="counters" aria-live="off">
      <div><dt>records in the logs</dt><dd data-counter="records">{records.toLocaleString('en-US')}</dd></div>
      <div><dt>live keys (valid buckets)</dt><dd data-counter="live_keys">{c.live_keys.toLocaleString('en-US')}</dd></div>
      <div><dt>records by state</dt><dd data-counter="states" className="small">{logCounts
        ? `live ${logCounts[0]} · orphaned ${logCounts[1]} · deleted ${logCounts[2]} · out of range ${logCounts[3]} · lost ${logCounts[4]}`
        : '—'}</dd></div>
      <div><dt>DRAM per live key</dt><dd data-counter="dram_bytes_per_key" title="index bytes (6 per bucket) ÷ live keys">{c.live_keys ? `${fmt(c.dram_bytes_per_key)} B` : '—'}
        <span className="muted"> ({fmt(c.index_bytes_per_bucket)} B/bucket)</span></dd></div>
      <div><dt>flash reads per get</dt><dd data-counter="reads_per_lookup" title="record reads ÷ gets (false positives add reads)">{c.measured_gets ? fmt(c.reads_per_lookup) : '—'}
        <span className="muted"> ({c.false_positives} false pos.)</span></dd></div>
      <div><dt>write amplification</dt><dd data-counter="write_amplification" title="bytes the node wrote (records, copies, checkpoints) ÷ bytes of records clients stored">{c.client_bytes ? fmt(c.write_amplification) : '—'}
        <span className="muted"> node · {fmt(c.flash_write_amplification)} flash</span></dd></div>
      <div><dt>queries per second</dt><dd data-counter="qps">{fmt(c.qps)}<span className="muted"> (last virtual s)</span></dd></div>
      <div><dt>mean latency</dt><dd data-counter="mean_latency_us">{c.ops_completed ? fmtNs(c.mean_latency_us * 1000) : '—'}<span className="muted"> (last 200)</span></dd></div>
      <div><dt>operations</dt><dd data-counter="ops_completed">{c.ops_completed.toLocaleString('en-US')}
        <span className="muted"> ({c.puts} puts, {c.gets} gets, {c.deletes} deletes)</span></dd></div>
      <div><dt>device</dt><dd data-counter="device" className="small">{snap.device.profile} · {fmtBytes(snap.device.host_write_bytes)} written · {snap.device.erases.toLocaleString('en-US')} erases</dd></div>
      {snap.load.errors > 0 && <div><dt>load errors</dt><dd className="error small">{snap.load.errors}: {snap.load.last_error}</dd></div>}
    </dl>
  );
}

export function RecentOps({ snap }: { snap: FawndsSnapshot }) {
  if (snap.ops.length === 0) return null;
  return (
    <ol className="recent-ops small" reversed aria-label="Recent operations">
      {[...snap.ops].reverse().slice(0, 6).map((o) => (
        <li key={o.id}>
          <code>{o.op} {o.key}</code> → {o.status}{o.value ? ` “${o.value}”` : ''}{o.latency_ns >= 0 ? ` in ${fmtNs(o.latency_ns)}` : ''}
          {o.message ? <span className="muted"> ({o.message})</span> : null}
        </li>
      ))}
    </ol>
  );
}
