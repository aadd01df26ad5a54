/**
 * The panels that read the networked back-end's snapshot as text: the headline numbers (a
 * `<dl>`, each value with a stable test id `vector-net-<id>`) and the table of where the
 * cores' time goes, kind by kind.
 */
import type { NetSnapshot } from './netTypes';
import { costRows, headline } from './netReadout';

export function NetHeadline({ snap }: { snap: NetSnapshot }) {
  const ms = Math.round(snap.window_ns / 1e6);
  return (
    <dl className="counters" aria-label={`Over the last ${ms} ms of virtual time`} data-testid="vector-net-headline">
      {headline(snap).map((r) => (
        <div key={r.id}><dt>{r.label}</dt><dd data-testid={`vector-net-${r.id}`}>{r.value}</dd></div>
      ))}
    </dl>
  );
}

export function CostTable({ snap }: { snap: NetSnapshot }) {
  return (
    <div className="table-wrap">
      <table className="node-table vnet-costs" data-testid="vector-net-costs">
        <caption className="sr-only">Where the cores' time goes, by cost kind, over the last window</caption>
        <thead>
          <tr><th scope="col">cost kind</th><th scope="col">paid</th><th scope="col" className="num">cores</th>
            <th scope="col" className="num">core-µs / lookup</th><th scope="col" className="num">events / lookup</th></tr>
        </thead>
        <tbody>
          {costRows(snap).map((r) => (
            <tr key={r.kind}>
              <th scope="row">{r.colour && <i className="sw" style={{ background: r.colour }} aria-hidden="true" />} {r.label}</th>
              <td>{r.per}</td><td className="num">{r.cores}</td><td className="num">{r.usPerKey}</td><td className="num">{r.eventsPerKey}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
