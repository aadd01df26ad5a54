/**
 * The panels that read a CONA snapshot as text: the counters in one table (quantity, value,
 * unit, grouped; each value with `data-counter`), each cell's memory, the last lookup step by
 * step (the same path the canvas draws, numbered alike), and the recent events.
 */
import { STEP_STYLES } from './conaPalette';
import { cellRows, counterRows, eventLines, lookupTitle, stepText } from './conaReadout';
import type { ConaSnapshot } from './conaTypes';
import { stepStyle } from './structureScene';

export function CountersTable({ snap }: { snap: ConaSnapshot }) {
  const rows = counterRows(snap);
  const groups = [...new Set(rows.map((r) => r.group))];
  return (
    <div className="table-wrap" role="region" aria-label="Counters" tabIndex={0}>
      <table className="node-table cona-counters" data-testid="cona-counters">
        <caption className="sr-only">The store's counters since it opened</caption>
        <thead><tr><th scope="col">quantity</th><th scope="col" className="num">value</th><th scope="col">unit</th></tr></thead>
        {groups.map((g) => (
          <tbody key={g}>
            <tr className="group"><th scope="rowgroup" colSpan={3}>{g}</th></tr>
            {rows.filter((r) => r.group === g).map((r) => (
              <tr key={r.id} title={r.help}>
                <th scope="row">{r.label}</th>
                <td className="num" data-counter={r.id}>{r.value}</td>
                <td className="unit">{r.unit}</td>
              </tr>
            ))}
          </tbody>
        ))}
      </table>
    </div>
  );
}

export function CellTable({ snap }: { snap: ConaSnapshot }) {
  const rows = cellRows(snap);
  if (rows.length === 0) return <p className="muted small">No cells yet: the first induce writes the frozen buffer into level 1.</p>;
  return (
    <div className="table-wrap" role="region" aria-label="Cells: trie and fragment memory" tabIndex={0}>
      <table className="node-table cona-cells" data-testid="cona-cells">
        <caption className="sr-only">Each cell's entries and the DRAM its trie and fragments take</caption>
        <thead>
          <tr>
            <th scope="col">cell</th><th scope="col">state</th><th scope="col" className="num">entries / capacity</th>
            <th scope="col" className="num">trie block</th><th scope="col" className="num">trie bytes</th><th scope="col" className="num">trie B/key</th>
            <th scope="col">fragments</th><th scope="col" className="num">fragment bytes</th><th scope="col" className="num">fragment B/key</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              <th scope="row">{r.place}</th><td className="state">{r.state}</td><td className="num">{r.entries}</td>
              <td className="num">{r.block}</td><td className="num">{r.trieBytes}</td><td className="num">{r.trieBpk}</td>
              <td>{r.fragments}</td><td className="num">{r.fragmentBytes}</td><td className="num">{r.fragmentBpk}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function LookupPanel({ snap, stale = false }: { snap: ConaSnapshot; stale?: boolean }) {
  const l = snap.last_lookup;
  if (!l) return <p className="muted small" data-testid="cona-lookup">Get a key to trace its lookup: the buffers, then each visible cell from level 1 down, newest first.</p>;
  return (
    <div className="cona-lookup" data-testid="cona-lookup">
      <p className="small"><strong>{lookupTitle(l)}</strong></p>
      {stale && <p className="small muted" data-testid="cona-lookup-stale">Merges have moved the structure on since this lookup: its path is drawn faded. Get the key again to trace it now.</p>}
      <ol className="cona-steps small">
        {l.steps.map((s, i) => {
          const st = stepStyle(s);
          return (
            <li key={i} data-outcome={s.outcome}>
              <span className="cona-mark" aria-hidden="true" style={{ background: st.fill, color: st.ink, borderColor: st === STEP_STYLES.passed ? st.stroke : '#1f2328' }}>{i + 1}</span>
              {stepText(s)}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

export function EventList({ snap }: { snap: ConaSnapshot }) {
  const lines = eventLines(snap);
  if (lines.length === 0) return <p className="muted small">No events yet.</p>;
  return (
    <ol className="cona-events small" reversed data-testid="cona-events" tabIndex={0} aria-label="Recent events, newest first">
      {lines.map((e) => <li key={e.key} data-kind={e.kind}>{e.text}</li>)}
    </ol>
  );
}
