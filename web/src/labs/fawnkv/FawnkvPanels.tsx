/**
 * The FAWN-KV lab's text panels beside the ring: the cluster line, one row per back-end, the
 * joins in progress with their pre-copy bars, the checker's verdict and the event log. All of
 * it comes from one snapshot (and the ring's shares, computed when the ring changes).
 */
import type { FawnkvCheck, FawnkvSnapshot } from './fawnkvTypes';
import { fmt, fmtBytes, fmtNs } from '../../viz/format';
import { nodeColour } from '../../viz/ringPalette';
import { fmtRange, fmtShare } from '../../viz/ringText';

const n = (v: number) => Math.round(v).toLocaleString('en-US');

export function ClusterLine({ snap }: { snap: FawnkvSnapshot }) {
  return (
    <p className="cluster-line" data-testid="fawnkv-cluster">
      <strong>Cluster</strong> (last virtual second): <span data-counter="qps">{n(snap.qps)}</span> queries/s ·{' '}
      <span data-counter="watts">{fmt(snap.watts)}</span> W · <span data-counter="qpj">{fmt(snap.qpj)}</span> queries/J
      <span className="muted"> · since the start: {n(snap.puts)} puts, {n(snap.gets)} gets, {n(snap.timeouts)} timed out</span>
    </p>
  );
}

export function NodeTable({ snap, shares }: { snap: FawnkvSnapshot; shares: Map<number, { share: number; vids: number }> | null }) {
  return (
    <div className="table-wrap">
      <table className="metrics node-table" data-testid="fawnkv-nodes">
        <caption>Back-ends (rates over the last virtual second)</caption>
        <thead>
          <tr>
            <th>node</th><th>state</th><th className="num">ring share</th><th className="num">stores</th><th className="num">records</th>
            <th className="num">QPS</th><th className="num">p50 ms</th><th className="num">p99 ms</th>
            <th className="num" title="messages waiting: client queue / chain queue">queues c / ch</th><th className="num">W</th><th className="num">queries/J</th>
          </tr>
        </thead>
        <tbody>
          {snap.nodes.filter((x) => x.state !== 'gone').map((x) => {
            const s = shares?.get(x.id);
            return (
              <tr key={x.id} className={`state-${x.state}`}>
                <td><span className="sw-sq" style={{ borderColor: nodeColour(x.id) }} />{x.id}</td>
                <td>{x.state}</td>
                <td className="num">{s ? fmtShare(s.share) : '—'}</td>
                <td className="num">{x.stores}</td>
                <td className="num" title={`${fmtBytes(x.log_bytes)} of log`}>{n(x.records)}</td>
                <td className="num">{n(x.qps)}</td>
                <td className="num">{x.qps > 0 ? fmt(x.p50_ms) : '—'}</td>
                <td className="num">{x.qps > 0 ? fmt(x.p99_ms) : '—'}</td>
                <td className="num">{x.client_queue} / {x.chain_queue}</td>
                <td className="num">{fmt(x.watts)}</td>
                <td className="num">{x.qps > 0 ? fmt(x.qpj) : '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function JoinList({ snap }: { snap: FawnkvSnapshot }) {
  if (snap.joins.length === 0) return <p className="muted small" data-testid="fawnkv-joins">No joins or re-replication in progress.</p>;
  return (
    <ul className="join-list small" data-testid="fawnkv-joins" aria-label="Joins in progress">
      {snap.joins.map((j) => (
        <li key={`${j.vid}-${j.start}-${j.role}`}>
          <span>
            <strong>{j.vid}</strong> joins as <strong>{j.role}</strong> of {fmtRange(j.start, j.end)}, copying from node {j.donor}:{' '}
            <strong>{j.phase}</strong> {fmtBytes(j.copied_bytes)} of {fmtBytes(j.total_bytes)}
          </span>
          <progress max={Math.max(1, j.total_bytes)} value={j.copied_bytes} aria-label={`pre-copy of ${j.vid}'s range`} />
        </li>
      ))}
    </ul>
  );
}

export function CheckVerdict({ check }: { check: FawnkvCheck | undefined }) {
  if (!check) return null;
  const ok = check.violations === 0;
  return (
    <div className="check-verdict" role="status" data-testid="fawnkv-check">
      <p className={`verdict ${ok ? 'pass' : 'fail'}`}>
        {ok ? 'Linearizable' : `${check.violations} violation${check.violations === 1 ? '' : 's'}`}: {n(check.operations)} operations on{' '}
        {n(check.keys)} keys checked.
      </p>
      {check.details.length > 0 && <ul className="small">{check.details.map((d, i) => <li key={i}>{d}</li>)}</ul>}
    </div>
  );
}

export function EventLog({ snap }: { snap: FawnkvSnapshot }) {
  if (snap.events.length === 0) return <p className="muted small">No membership events yet.</p>;
  return (
    <ol className="event-log small" reversed aria-label="Cluster events, newest first" data-testid="fawnkv-events">
      {[...snap.events].reverse().slice(0, 30).map((e, i) => (
        <li key={`${e.t_ns}-${i}`}><span className="muted">{fmtNs(e.t_ns)}</span> {e.text}</li>
      ))}
    </ol>
  );
}
