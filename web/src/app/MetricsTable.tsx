/**
 * The run's metrics beside the values it is meant to reproduce: each anchored metric shows the
 * anchor, the deviation and whether it is within the experiment's tolerance.
 */
import type { ExperimentResult } from '../model/types';
import { deviation, fmt } from '../viz/format';

export function withinTolerance(r: ExperimentResult, name: string): boolean | null {
  const anchor = r.anchors[name];
  const tol = r.tolerances[name];
  const v = r.metrics[name];
  if (anchor === undefined || tol === undefined || v === undefined) return null;
  const bound = tol.rel !== undefined ? tol.rel * Math.abs(anchor) : (tol.abs ?? 0);
  return Math.abs(v - anchor) <= bound;
}

export function MetricsTable({ result }: { result: ExperimentResult }) {
  const names = Object.keys(result.metrics);
  return (
    <table className="metrics">
      <caption>Metrics of this run, with the values they should reproduce</caption>
      <thead>
        <tr>
          <th scope="col">metric</th>
          <th scope="col">this run</th>
          <th scope="col">anchor</th>
          <th scope="col">deviation</th>
          <th scope="col">within tolerance</th>
        </tr>
      </thead>
      <tbody>
        {names.map((n) => {
          const v = result.metrics[n]!;
          const a = result.anchors[n];
          const ok = withinTolerance(result, n);
          const tol = result.tolerances[n];
          const tolText = tol ? (tol.rel !== undefined ? `±${fmt(tol.rel * 100)}%` : `±${fmt(tol.abs ?? 0)}`) : '';
          return (
            <tr key={n} data-metric={n}>
              <th scope="row"><code>{n}</code></th>
              <td className="num" data-value={v}>{fmt(v, 4)}</td>
              <td className="num">{a === undefined ? '' : fmt(a, 4)}</td>
              <td className="num">{a === undefined ? '' : deviation(v, a)}</td>
              <td className={ok === null ? '' : ok ? 'pass' : 'fail'}>
                {ok === null ? '' : ok ? `✓ yes (${tolText})` : `✗ no (${tolText})`}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
