/**
 * The run's metrics beside the values they are meant to reproduce: each anchored metric shows
 * the anchor, whether the model was fitted to it or it emerged (a badge, explained in the
 * legend), the deviation, whether it is within the experiment's tolerance and, when it is
 * not, the model's reason.
 */
import { Fragment } from 'react';
import type { AnchorBasis, AnchorNote, ExperimentResult } from '../model/types';
import { deviation, fmt } from '../viz/format';

export function withinTolerance(r: ExperimentResult, name: string): boolean | null {
  const anchor = r.anchors[name];
  const tol = r.tolerances[name];
  const v = r.metrics[name];
  if (anchor === undefined || tol === undefined || v === undefined) return null;
  const bound = tol.rel !== undefined ? tol.rel * Math.abs(anchor) : (tol.abs ?? 0);
  return Math.abs(v - anchor) <= bound;
}

export const BASIS_MEANING: Record<AnchorBasis, string> = {
  fitted: 'a model constant was calibrated so that this number comes out: agreement shows the fit held, not a prediction',
  emergent: 'nothing in the model was calibrated to this number: agreement (or not) is what the mechanism predicts',
};

function BasisBadge({ note }: { note: AnchorNote }) {
  return (
    <span className={`basis basis-${note.basis}`} title={`${note.basis}: ${BASIS_MEANING[note.basis]}. ${note.why}`}>
      {note.basis}
    </span>
  );
}

export function MetricsTable({ result }: { result: ExperimentResult }) {
  const names = Object.keys(result.metrics);
  const notes = result.anchor_notes;
  const hasNotes = Object.keys(notes).length > 0;
  return (
    <>
      <table className="metrics">
        <caption>Metrics of this run, with the values they should reproduce</caption>
        <thead>
          <tr>
            <th scope="col">metric</th>
            <th scope="col">this run</th>
            <th scope="col">anchor</th>
            <th scope="col">basis</th>
            <th scope="col">deviation</th>
            <th scope="col">within tolerance</th>
          </tr>
        </thead>
        <tbody>
          {names.map((n) => {
            const v = result.metrics[n]!;
            const a = result.anchors[n];
            const note = notes[n];
            const ok = withinTolerance(result, n);
            const tol = result.tolerances[n];
            const tolText = tol ? (tol.rel !== undefined ? `±${fmt(tol.rel * 100)}%` : `±${fmt(tol.abs ?? 0)}`) : '';
            return (
              <Fragment key={n}>
                <tr data-metric={n} className={ok === false ? 'missed' : undefined}>
                  <th scope="row"><code>{n}</code></th>
                  <td className="num" data-value={v}>{fmt(v, 4)}</td>
                  <td className="num">{a === undefined ? '' : fmt(a, 4)}</td>
                  <td className="basis-cell">
                    {note && <BasisBadge note={note} />}
                    {note && <span className="anchor-source">{note.source}</span>}
                  </td>
                  <td className="num">{a === undefined ? '' : deviation(v, a)}</td>
                  <td className={ok === null ? '' : ok ? 'pass' : 'fail'}>
                    {ok === null ? '' : ok ? `✓ yes (${tolText})` : `✗ no (${tolText})`}
                  </td>
                </tr>
                {ok === false && (
                  <tr className="miss-row" data-miss-for={n}>
                    <td colSpan={6}>
                      <strong>Why it misses: </strong>
                      {note?.miss
                        ? note.miss
                        : 'the experiment records no reason. Anchors hold at the paper’s setting; check whether the parameters differ from it.'}
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
      {hasNotes && (
        <dl className="basis-legend" aria-label="What the basis badges mean">
          {(['fitted', 'emergent'] as const).map((b) => (
            <Fragment key={b}>
              <dt><span className={`basis basis-${b}`}>{b}</span></dt>
              <dd>{BASIS_MEANING[b]}.</dd>
            </Fragment>
          ))}
        </dl>
      )}
    </>
  );
}
