/**
 * The panels that read a Stores snapshot as text: the counters in one aligned table (a row per
 * quantity with its unit, a column per store; each value a `td[data-store][data-counter]`),
 * the last get per store (found, latency, device reads), the recent events, and the chart's
 * legend (each store's colour, line style and name).
 */
import { COUNTER_GROUPS, COUNTERS, eventLines, getRows, getTitle, shortName } from './storesReadout';
import { storeStyle } from './storesPalette';
import type { StoresSnapshot } from './storesTypes';

/** A short sample of a store's line: its colour and dash. */
export function LineSwatch({ kind }: { kind: string }) {
  const st = storeStyle(kind);
  return (
    <svg className="stores-swatch" width="26" height="10" aria-hidden="true" focusable="false">
      <line x1="1" y1="5" x2="25" y2="5" stroke={st.colour} strokeWidth="2.5" strokeDasharray={st.dash.join(' ') || undefined} />
    </svg>
  );
}

export function CountersTable({ snap }: { snap: StoresSnapshot }) {
  const stores = snap.stores;
  return (
    <div className="table-wrap" role="region" aria-label="Counters, a column per store" tabIndex={0}>
      <table className="node-table stores-counters" data-testid="stores-counters">
        <caption className="sr-only">Each store's counters since the session opened: a row per quantity, a column per store</caption>
        <thead>
          <tr>
            <th scope="col">quantity</th>
            <th scope="col">unit</th>
            {stores.map((s) => (
              <th scope="col" key={s.kind} className="num" data-store={s.kind} title={s.label}><LineSwatch kind={s.kind} />{shortName(s)}</th>
            ))}
          </tr>
        </thead>
        {COUNTER_GROUPS.map((g) => (
          <tbody key={g}>
            <tr className="group"><th scope="rowgroup" colSpan={2 + stores.length}>{g}</th></tr>
            {COUNTERS.filter((c) => c.group === g).map((c) => (
              <tr key={c.id} title={c.help}>
                <th scope="row">{c.label}</th>
                <td className="unit">{c.unit}</td>
                {stores.map((s) => <td key={s.kind} className="num" data-store={s.kind} data-counter={c.id}>{c.value(s)}</td>)}
              </tr>
            ))}
          </tbody>
        ))}
      </table>
    </div>
  );
}

export function GetTable({ snap }: { snap: StoresSnapshot }) {
  const rows = getRows(snap);
  if (rows.length === 0) {
    return <p className="muted small" data-testid="stores-get">Get a key to look it up in every store: whether each found it, how long it took and how many device reads it cost.</p>;
  }
  return (
    <div data-testid="stores-get">
      <p className="small"><strong>{getTitle(snap)}</strong></p>
      <div className="table-wrap" role="region" aria-label="The last get, per store" tabIndex={0}>
        <table className="node-table stores-get">
          <caption className="sr-only">The last get in each store</caption>
          <thead><tr><th scope="col">store</th><th scope="col">result</th><th scope="col" className="num">latency (µs)</th><th scope="col" className="num">device reads</th></tr></thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.kind} data-store={r.kind}>
                <th scope="row"><LineSwatch kind={r.kind} />{r.label}</th>
                <td data-found={r.found === 'found'}>{r.found}</td>
                <td className="num">{r.latency}</td>
                <td className="num">{r.reads}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export function EventList({ snap }: { snap: StoresSnapshot }) {
  const lines = eventLines(snap);
  if (lines.length === 0) return <p className="muted small" data-testid="stores-events">No background work yet: merges, compactions, conversions and flushes appear here.</p>;
  return (
    <ol className="stores-events small" reversed data-testid="stores-events" tabIndex={0} aria-label="Recent background events, newest first">
      {lines.map((e) => <li key={e.key} data-kind={e.kind} data-store={e.store}><LineSwatch kind={e.store} />{e.text}</li>)}
    </ol>
  );
}

export function ChartLegend({ snap }: { snap: StoresSnapshot }) {
  return (
    <ul className="legend-row small stores-legend" aria-label="Chart legend">
      {snap.stores.map((s) => <li key={s.kind}><LineSwatch kind={s.kind} />{s.label} ({storeStyle(s.kind).line})</li>)}
    </ul>
  );
}
