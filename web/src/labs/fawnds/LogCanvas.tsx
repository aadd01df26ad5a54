/**
 * The FAWN-DS data logs on a canvas (logScene): one row per store along the log offset axis,
 * with zoom, pan and a record cursor read out for the keyboard and the pointer. The host paints
 * it through the handle (`draw`) from its frame loop: always when the columns are new, else
 * only when a key, a zoom, a click or a resize here asked for a repaint. Without a zoom of the
 * user's the view fits every log whole.
 */
import { useImperativeHandle, useRef, useState, type KeyboardEvent, type PointerEvent, type Ref } from 'react';
import { paintScene } from '../../viz/canvasScene';
import {
  describeRecord, fitViewport, logScene, panViewport, recordAt, zoomViewport, type LogCursor, type LogLayout, type LogRow, type LogViewport,
} from './fawndsLogView';
import { canvasPoint, canvasWidth, useDirtyOnResize } from '../../app/viewSize';

export interface LogCanvasHandle {
  /** Paints the rows `rows()` builds when `force` or when this view asked for a repaint. */
  draw(rows: () => LogRow[], crashed: boolean, force: boolean): void;
  /** A new session: fit the logs again and drop the cursor. */
  reset(): void;
}

export function LogCanvas({ ref, crashed }: { ref: Ref<LogCanvasHandle>; crashed: boolean }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const rows = useRef<LogRow[]>([]);
  const layout = useRef<LogLayout | null>(null);
  const viewport = useRef<LogViewport>({ start: 0, end: 1024 });
  const autoFit = useRef(true);
  const cursor = useRef<LogCursor | null>(null);
  const dirty = useRef(true);
  const [readout, setReadout] = useState('Focus the log view and use the arrow keys to read its records.');

  useImperativeHandle(ref, () => ({
    draw(build, isCrashed, force) {
      if (!force && !dirty.current) return;
      dirty.current = false;
      const c = canvas.current;
      if (!c) return;
      rows.current = build();
      // The cursor's record may have arrived with these rows (focused before the log's columns
      // came): read it out again. An unchanged text does not re-render.
      if (cursor.current) describeCursor();
      if (autoFit.current) viewport.current = fitViewport(rows.current);
      const { scene, layout: l } = logScene(rows.current, viewport.current, { width: canvasWidth(wrap.current, 800), crashed: isCrashed, cursor: cursor.current });
      layout.current = l;
      paintScene(c, scene, window.devicePixelRatio || 1);
    },
    reset() {
      autoFit.current = true;
      cursor.current = null;
      dirty.current = true;
    },
  }), []);

  useDirtyOnResize(wrap, dirty);

  const describeCursor = () => {
    const c = cursor.current;
    const row = c ? rows.current[c.row] : undefined;
    setReadout(c && row ? describeRecord(row, c.record) : 'No record.');
  };
  const ensureVisible = () => {
    const c = cursor.current;
    const log = c ? rows.current[c.row]?.log : null;
    if (!c || !log) return;
    const o = log.offsets[c.record]!;
    const v = viewport.current;
    if (o < v.start || o >= v.end) {
      autoFit.current = false;
      const limit = Math.max(...rows.current.map((r) => r.capacity));
      viewport.current = panViewport({ start: o - (v.end - v.start) / 2, end: o + (v.end - v.start) / 2 }, 0, limit);
    }
  };
  const zoom = (factor: number) => {
    const limit = Math.max(1024, ...rows.current.map((r) => r.capacity));
    const v = viewport.current;
    const c = cursor.current;
    const log = c ? rows.current[c.row]?.log : null;
    const at = c && log ? log.offsets[c.record]! : (v.start + v.end) / 2;
    autoFit.current = false;
    viewport.current = zoomViewport(v, factor, at, limit);
    dirty.current = true;
  };
  const fit = () => {
    autoFit.current = true;
    dirty.current = true;
  };
  const onKey = (e: KeyboardEvent) => {
    const rs = rows.current;
    if (rs.length === 0) return;
    const c = cursor.current ?? { row: 0, record: 0 };
    const n = rs[c.row]?.log?.offsets.length ?? 0;
    let next: LogCursor | null = null;
    switch (e.key) {
      case 'ArrowRight': next = { ...c, record: Math.min(n - 1, c.record + 1) }; break;
      case 'ArrowLeft': next = { ...c, record: Math.max(0, c.record - 1) }; break;
      case 'ArrowDown':
      case 'ArrowUp': {
        const row = Math.max(0, Math.min(rs.length - 1, c.row + (e.key === 'ArrowDown' ? 1 : -1)));
        next = { row, record: Math.min(c.record, Math.max(0, (rs[row]?.log?.offsets.length ?? 1) - 1)) };
        break;
      }
      case 'Home': next = { ...c, record: 0 }; break;
      case 'End': next = { ...c, record: Math.max(0, n - 1) }; break;
      case '+': case '=': zoom(0.5); break;
      case '-': zoom(2); break;
      case '0': fit(); break;
      default: return;
    }
    e.preventDefault();
    e.stopPropagation();
    if (next) {
      cursor.current = next;
      ensureVisible();
      describeCursor();
    }
    dirty.current = true;
  };
  const onPointer = (e: PointerEvent<HTMLCanvasElement>) => {
    const L = layout.current;
    if (!L) return;
    const [x, y] = canvasPoint(e.currentTarget, L.width, e.clientX, e.clientY);
    const ri = Math.floor((y - L.rowY(0)) / (L.rowY(1) - L.rowY(0)));
    const row = rows.current[ri];
    if (!row?.log || x < L.plotX) return;
    const i = recordAt(row.log, L.offsetAt(x));
    if (i < 0) return;
    if (e.type === 'pointerdown') {
      cursor.current = { row: ri, record: i };
      dirty.current = true;
    }
    setReadout(describeRecord(row, i));
  };

  return (
    <>
      <div className="fawnds-head">
        <h3>Data logs {crashed && <><span className="crash-badge">crashed</span> <span className="small muted">the records on flash remain; the DRAM index is gone</span></>}</h3>
        <div className="zoom" role="group" aria-label="Log zoom">
          <button type="button" onClick={() => zoom(0.5)} title="Zoom in (key: +)">Zoom in</button>
          <button type="button" onClick={() => zoom(2)} title="Zoom out (key: −)">Zoom out</button>
          <button type="button" onClick={fit} title="Show every log whole (key: 0)">Fit</button>
        </div>
      </div>
      <div ref={wrap} className="canvas-wrap">
        <canvas ref={canvas} className="fawnds-canvas" tabIndex={0} role="img" data-testid="fawnds-log"
          aria-label="Each store's data log along the log offset axis, records coloured by state. Arrow keys move between records and stores; + and − zoom; 0 fits; space plays or pauses."
          aria-describedby="fawnds-log-readout" onKeyDown={onKey} onPointerMove={onPointer} onPointerDown={onPointer}
          onFocus={() => { if (!cursor.current) { cursor.current = { row: 0, record: 0 }; describeCursor(); dirty.current = true; } }} />
      </div>
      <p id="fawnds-log-readout" className="readout small" aria-live="polite">{readout}</p>
    </>
  );
}
