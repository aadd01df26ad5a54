/**
 * The panels that read an SRCMap snapshot: the day clock with the power now and its meter (watts
 * against the all-on and standby lines and Eq. 3.1's ideal), the counters (a row per quantity,
 * each value a `td[data-counter]`), the events (newest first), and the legends of the map and the
 * chart (every colour named with its shape or dash).
 */
import { fmt } from '../../viz/format';
import { StateIcon } from './MapView';
import { LineSample, SpinUpSample } from './PowerChart';
import { SM, SPINUP_STYLES, STATE_STYLES } from './srcmapPalette';
import { clockText, counterRows, eventLines, powerLine, wattsText } from './srcmapReadout';
import type { SrcmapSnapshot } from './srcmapTypes';

/** The meter's scale: 0 to a multiple of 20 W above all-on. */
export function meterMax(snap: SrcmapSnapshot): number {
  const p = snap.power;
  return Math.max(20, Math.ceil((Math.max(p.all_on_watts || 0, p.watts || 0) * 1.05) / 20) * 20);
}

/** Half a label's width at the meter's 11 px text (about 6.2 px a character), with a margin. */
const labelHalf = (text: string) => text.length * 3.1 + 4;

function Meter({ snap }: { snap: SrcmapSnapshot }) {
  const p = snap.power;
  const max = meterMax(snap);
  const W = 300;
  const x = (v: number) => 4 + (Math.min(max, Math.max(0, v || 0)) / max) * (W - 8);
  const clampX = (v: number, half: number) => Math.min(W - half, Math.max(half, v));
  // The ideal's label over the bar, the references' under it: they never collide.
  return (
    <svg className="srcmap-meter" viewBox={`0 0 ${W} 56`} role="img" data-testid="srcmap-meter"
      aria-label={`Power meter: ${powerLine(snap)}`}>
      <text x={clampX(x(p.ideal_watts), labelHalf(`ideal ${fmt(p.ideal_watts)} W`))} y={11} textAnchor="middle" className="srcmap-tick srcmap-ideal-text">ideal {fmt(p.ideal_watts)} W</text>
      <rect x={4} y={18} width={W - 8} height={14} fill="#eef1f4" rx={3} />
      <rect x={4} y={18} width={Math.max(0, x(p.watts) - 4)} height={14} fill={SM.watts} rx={3} />
      <line x1={x(p.standby_watts)} x2={x(p.standby_watts)} y1={15} y2={37} stroke={SM.ink} strokeDasharray="2 2" strokeWidth={1.5} />
      <line x1={x(p.all_on_watts)} x2={x(p.all_on_watts)} y1={15} y2={37} stroke={SM.ink} strokeDasharray="6 3" strokeWidth={1.5} />
      <line x1={x(p.ideal_watts)} x2={x(p.ideal_watts)} y1={16} y2={34} stroke={SM.ideal} strokeWidth={2.5} />
      <path d={`M${x(p.ideal_watts)},20 l-5,-6 h10 Z`} fill={SM.ideal} stroke="#ffffff" strokeWidth={0.8} />
      <text x={clampX(x(p.standby_watts), labelHalf(`standby ${fmt(p.standby_watts)} W`))} y={50} textAnchor="middle" className="srcmap-tick">standby {fmt(p.standby_watts)} W</text>
      <text x={clampX(x(p.all_on_watts), labelHalf(`all on ${fmt(p.all_on_watts)} W`))} y={50} textAnchor="middle" className="srcmap-tick">all on {fmt(p.all_on_watts)} W</text>
    </svg>
  );
}

/** The day clock, the power now, the meter. */
export function DayStrip({ snap }: { snap: SrcmapSnapshot | null }) {
  return (
    <div className="srcmap-day">
      <div className="srcmap-readings">
        <div>
          <span className="srcmap-reading-label">time of day</span>
          <span className="srcmap-clock" data-testid="srcmap-clock" aria-live="off">{snap ? clockText(snap.t_h) : '00:00'}</span>
        </div>
        <div>
          <span className="srcmap-reading-label">power now</span>
          <span className="srcmap-watts" data-testid="srcmap-watts">{snap ? wattsText(snap.power.watts) : wattsText(null)}</span>
        </div>
      </div>
      {snap && <Meter snap={snap} />}
    </div>
  );
}

export function CountersTable({ snap }: { snap: SrcmapSnapshot }) {
  return (
    <div className="table-wrap" role="region" aria-label="Today's counters" tabIndex={0}>
      <table className="node-table srcmap-counters" data-testid="srcmap-counters">
        <caption className="sr-only">Today's counters so far: a row per quantity</caption>
        <thead>
          <tr><th scope="col">quantity</th><th scope="col" className="num">value</th><th scope="col">unit</th></tr>
        </thead>
        <tbody>
          {counterRows(snap).map((r) => (
            <tr key={r.id} title={r.help}>
              <th scope="row">{r.label}</th>
              <td className="num" data-counter={r.id}>{r.value}</td>
              <td className="unit">{r.unit}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function EventList({ snap }: { snap: SrcmapSnapshot | null }) {
  const lines = snap ? eventLines(snap) : [];
  if (lines.length === 0) {
    return <p className="muted small" data-testid="srcmap-events">Spin-ups, spin-downs, remaps, re-triggers, read misses and each interval’s decision appear here as the day runs.</p>;
  }
  return (
    <ol className="srcmap-events small" reversed data-testid="srcmap-events" tabIndex={0} aria-label="Recent events, newest first">
      {lines.map((e) => <li key={e.key} data-kind={e.kind}>{e.text}</li>)}
    </ol>
  );
}

/** The map's legend: each state's colour, icon and name; the edges' kinds. */
export function MapLegend() {
  return (
    <div className="legend-row small srcmap-legend" aria-label="Map legend">
      {Object.entries(STATE_STYLES).map(([k, st]) => (
        <span key={k}>
          <svg className="srcmap-swatch" width="18" height="18" aria-hidden="true" focusable="false">
            <rect x={0} y={0} width={18} height={18} rx={3} fill={st.colour} />
            <StateIcon style={st} cx={9} cy={9} />
          </svg>
          {st.label}
        </span>
      ))}
      <span><svg className="srcmap-swatch" width="26" height="14" aria-hidden="true" focusable="false"><rect x={1} y={1} width={24} height={12} rx={3} fill="#fff" stroke={SM.ink} strokeWidth={2} /></svg>in the active set</span>
      <span><svg className="srcmap-swatch" width="26" height="14" aria-hidden="true" focusable="false"><rect x={1} y={1} width={24} height={12} rx={3} fill="#fff" stroke={SM.ink} strokeWidth={1.2} strokeDasharray="4 3" /></svg>not in it</span>
      <span><LineSample colour={SM.served} width={5} />served here now (wider: more I/O)</span>
      <span><LineSample colour={SM.copy} width={1.2} />its primary</span>
      <span><LineSample colour={SM.copy} width={1.2} dash="5 3" />a working-set replica</span>
      <span><LineSample colour={SM.copy} width={1.2} dash="2 3" />other I/O (a miss, a cache)</span>
    </div>
  );
}

export function ChartLegend() {
  return (
    <div className="legend-row small srcmap-legend" aria-label="Chart legend">
      <span><LineSample colour={SM.watts} />watts (a step per minute)</span>
      <span><LineSample colour={SM.ideal} dash="6 3" />ideal, Eq. 3.1 (proportional to load)</span>
      <span><LineSample colour={SM.ref} dash="8 4" />all on</span>
      <span><LineSample colour={SM.ref} dash="2 3" />all in standby</span>
      <span><LineSample colour={SM.load} dash="3 2" width={1.5} />load (right axis, IOPS)</span>
      {SPINUP_STYLES.map((st, c) => <span key={st.word}><SpinUpSample cause={c} />{st.label}</span>)}
    </div>
  );
}
