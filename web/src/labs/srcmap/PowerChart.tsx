/**
 * The power chart over the day as SVG (powerScene.ts): watts as a step line against the all-on and
 * standby lines and Eq. 3.1's ideal, the load on the right axis, spin-ups as marks under the
 * curve (a triangle planned, a diamond for a read miss, a bar for other I/O), now as a cursor. The chart is focusable: ← → pick a minute (Shift: ten), Home / End jump,
 * Escape lets go; the pointer picks too. The picked minute is read out in words (`onReadout`).
 */
import { useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { powerScene, rowAt, rowText, xHour, type PowerRefs } from './powerScene';
import { useWidth } from './MapView';
import { SM, SPINUP_STYLES, spinUpStyle } from './srcmapPalette';
import type { PowerSeries } from './srcmapTypes';

interface Props {
  series: PowerSeries | null;
  refs: PowerRefs;
  nowH: number | null;
  label: string;
  onReadout: (text: string) => void;
  /** The width laid out before the container is measured (and in tests). */
  initialWidth?: number;
}

export function PowerChart({ series, refs, nowH, label, onReadout, initialWidth = 640 }: Props) {
  const wrap = useRef<HTMLDivElement>(null);
  const svg = useRef<SVGSVGElement>(null);
  const width = useWidth(wrap, initialWidth);
  const [pick, setPick] = useState(-1);
  const n = series?.t_h.length ?? 0;
  const at = pick >= n ? n - 1 : pick;
  const s = powerScene(series, refs, nowH, width, at);
  const f = s.frame;
  const bottom = f.top + f.h;

  const choose = (i: number) => {
    setPick(i);
    onReadout(i >= 0 && series && i < n ? rowText(series, i) : '');
  };
  const onKey = (e: KeyboardEvent<SVGSVGElement>) => {
    if (n === 0) return;
    if (e.key === 'Escape') {
      choose(-1);
      return;
    }
    const cur = at < 0 ? n - 1 : at;
    const stepN = e.shiftKey ? 10 : 1;
    const to: Record<string, number> = { ArrowLeft: Math.max(0, cur - stepN), ArrowRight: Math.min(n - 1, cur + stepN), Home: 0, End: n - 1 };
    const next = to[e.key];
    if (next === undefined) return;
    e.preventDefault();
    e.stopPropagation();
    choose(at < 0 ? cur : next);
  };
  const onPointer = (e: PointerEvent<SVGSVGElement>) => {
    const el = svg.current;
    if (!el || n === 0) return;
    const r = el.getBoundingClientRect();
    const x = ((e.clientX - r.left) / Math.max(1, r.width)) * s.width;
    if (x < f.left - 4 || x > f.left + f.w + 4) return;
    choose(rowAt(series, xHour(f, x)));
  };

  return (
    <div ref={wrap} className="srcmap-chart-wrap">
      <svg ref={svg} className="srcmap-chart" width={s.width} height={s.height} viewBox={`0 0 ${s.width} ${s.height}`} role="img" tabIndex={0}
        aria-label={label} data-testid="srcmap-power-chart" aria-keyshortcuts="ArrowLeft ArrowRight Home End Escape"
        onKeyDown={onKey} onPointerDown={onPointer} onPointerMove={onPointer}
        onPointerLeave={(e) => { if (e.pointerType === 'mouse') choose(-1); }} onBlur={() => choose(-1)}>
        {s.yTicks.map((t) => (
          <g key={`y${t.label}`}>
            <line x1={f.left} x2={f.left + f.w} y1={t.at} y2={t.at} stroke="#eef1f4" />
            <line x1={f.left - 4} x2={f.left} y1={t.at} y2={t.at} stroke={SM.axis} />
            <text x={f.left - 6} y={t.at + 4} textAnchor="end" className="srcmap-tick">{t.label}</text>
          </g>
        ))}
        {s.y2Ticks.map((t) => (
          <g key={`y2${t.label}`}>
            <line x1={f.left + f.w} x2={f.left + f.w + 4} y1={t.at} y2={t.at} stroke={SM.load} />
            <text x={f.left + f.w + 6} y={t.at + 4} className="srcmap-tick srcmap-tick-load">{t.label}</text>
          </g>
        ))}
        {s.xTicks.map((t) => (
          <g key={`x${t.label}`}>
            <line x1={t.at} x2={t.at} y1={bottom} y2={bottom + 4} stroke={SM.axis} />
            <text x={t.at} y={bottom + 16} textAnchor="middle" className="srcmap-tick">{t.label}</text>
          </g>
        ))}
        <line x1={f.left} x2={f.left + f.w} y1={bottom} y2={bottom} stroke={SM.axis} />
        <line x1={f.left} x2={f.left} y1={f.top} y2={bottom} stroke={SM.axis} />
        <line x1={f.left + f.w} x2={f.left + f.w} y1={f.top} y2={bottom} stroke={SM.load} />
        <text x={f.left + f.w / 2} y={bottom + 32} textAnchor="middle" className="srcmap-axis-title">hour of the day</text>
        <text x={12} y={f.top + f.h / 2} textAnchor="middle" className="srcmap-axis-title" transform={`rotate(-90 12 ${f.top + f.h / 2})`}>power (W)</text>
        <text x={s.width - 8} y={f.top + f.h / 2} textAnchor="middle" className="srcmap-axis-title srcmap-tick-load"
          transform={`rotate(90 ${s.width - 8} ${f.top + f.h / 2})`}>load (IOPS)</text>

        {s.allOnY !== null && <line x1={f.left} x2={f.left + f.w} y1={s.allOnY} y2={s.allOnY} stroke={SM.ref} strokeDasharray="8 4" strokeWidth={1.5} />}
        {s.standbyY !== null && <line x1={f.left} x2={f.left + f.w} y1={s.standbyY} y2={s.standbyY} stroke={SM.ref} strokeDasharray="2 3" strokeWidth={1.5} />}
        {s.load && <path d={s.load} fill="none" stroke={SM.load} strokeWidth={1.2} strokeDasharray="3 2" strokeOpacity={0.6} />}
        {s.ideal && <path d={s.ideal} fill="none" stroke={SM.ideal} strokeWidth={1.8} strokeDasharray="6 3" />}
        {s.watts && <path d={s.watts} fill="none" stroke={SM.watts} strokeWidth={2.2} />}
        {s.allOnY !== null && <text x={f.left + 4} y={s.allOnY - 4} className="srcmap-line-label">all on {refs.allOn?.toFixed(1)} W</text>}
        {s.standbyY !== null && <text x={f.left + 4} y={s.standbyY + 13} className="srcmap-line-label">standby {refs.standby?.toFixed(1)} W</text>}
        {s.spinUps.map((u, i) => {
          const st = spinUpStyle(u.cause);
          return <path key={`u${i}`} d={u.d} fill={st.colour} stroke="#ffffff" strokeWidth={0.8} data-cause={st.word} />;
        })}
        {s.cursorX !== null && <line x1={s.cursorX} x2={s.cursorX} y1={f.top} y2={bottom} stroke={SM.ink} strokeWidth={1} strokeOpacity={0.6} />}
        {s.pickX !== null && <line x1={s.pickX} x2={s.pickX} y1={f.top} y2={bottom} stroke={SM.ink} strokeDasharray="2 2" />}
        {n === 0 && <text x={f.left + f.w / 2} y={f.top + f.h / 2} textAnchor="middle" className="srcmap-tick">press Play: the day’s power draws here minute by minute</text>}
      </svg>
    </div>
  );
}

/** A spin-up cause's mark, for the legend. */
export function SpinUpSample({ cause }: { cause: number }) {
  const st = SPINUP_STYLES[cause]!;
  const d = st.shape === 'triangle' ? 'M6,1L11,11L1,11Z' : st.shape === 'diamond' ? 'M6,0L12,6L6,12L0,6Z' : 'M5,0H7V12H5Z';
  return (
    <svg className="srcmap-swatch" width="12" height="12" aria-hidden="true" focusable="false">
      <path d={d} fill={st.colour} />
    </svg>
  );
}

/** A short sample of a chart line, for the legend. */
export function LineSample({ colour, dash, width = 2.2 }: { colour: string; dash?: string; width?: number }) {
  return (
    <svg className="srcmap-swatch" width="26" height="10" aria-hidden="true" focusable="false">
      <line x1="1" y1="5" x2="25" y2="5" stroke={colour} strokeWidth={width} strokeDasharray={dash} />
    </svg>
  );
}
