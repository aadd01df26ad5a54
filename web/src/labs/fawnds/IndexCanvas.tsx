/**
 * A FAWN-DS store's hash index on a canvas (indexScene): one square per bucket (or group of
 * buckets), the last lookup's probes outlined, a bucket cursor read out for the keyboard and
 * the pointer. The host paints it through the handle (`draw`) from its frame loop, as
 * LogCanvas; no cells (a crashed node) hides the canvas and shows `note`.
 */
import { useImperativeHandle, useRef, useState, type KeyboardEvent, type PointerEvent, type Ref } from 'react';
import type { FawndsIndexCells, FawndsLookup } from './fawndsTypes';
import { paintScene } from '../../viz/canvasScene';
import { describeCell, indexScene, type IndexLayout } from './fawndsIndexView';
import { canvasPoint, canvasWidth, useDirtyOnResize } from '../../app/viewSize';

export interface IndexCanvasHandle {
  /** Paints `cells` of `store` with `lookup`'s probes when `force` or when this view asked for a repaint. */
  draw(cells: FawndsIndexCells | null, store: number, lookup: FawndsLookup | null, force: boolean): void;
  /** A new session: drop the cursor. */
  reset(): void;
}

export function IndexCanvas({ ref, store, note }: { ref: Ref<IndexCanvasHandle>; store: number; note: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const cells = useRef<FawndsIndexCells | null>(null);
  const layout = useRef<IndexLayout | null>(null);
  const cursor = useRef<number | null>(null);
  const dirty = useRef(true);
  const [readout, setReadout] = useState('');

  useImperativeHandle(ref, () => ({
    draw(c, shown, lookup, force) {
      cells.current = c;
      if (!force && !dirty.current) return;
      dirty.current = false;
      const el = canvas.current;
      if (!el) return;
      if (!c) {
        el.style.display = 'none';
        layout.current = null;
        return;
      }
      el.style.display = '';
      const { scene, layout: l } = indexScene(c, { width: canvasWidth(wrap.current, 480), store: shown, lookup, cursor: cursor.current });
      layout.current = l;
      paintScene(el, scene, window.devicePixelRatio || 1);
    },
    reset() {
      cursor.current = null;
      dirty.current = true;
    },
  }), []);

  useDirtyOnResize(wrap, dirty);

  const onKey = (e: KeyboardEvent) => {
    const c = cells.current;
    const L = layout.current;
    if (!c || !L) return;
    const cur = cursor.current ?? 0;
    const n = c.valid.length;
    const delta = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : e.key === 'ArrowDown' ? L.cols : e.key === 'ArrowUp' ? -L.cols : null;
    if (delta === null) return;
    e.preventDefault();
    e.stopPropagation();
    cursor.current = Math.max(0, Math.min(n - 1, cur + delta));
    setReadout(describeCell(c, cursor.current));
    dirty.current = true;
  };
  const onPointer = (e: PointerEvent<HTMLCanvasElement>) => {
    const c = cells.current;
    const L = layout.current;
    if (!c || !L) return;
    const cell = L.cellAt(...canvasPoint(e.currentTarget, L.width, e.clientX, e.clientY));
    if (cell < 0) return;
    if (e.type === 'pointerdown') {
      cursor.current = cell;
      dirty.current = true;
    }
    setReadout(describeCell(c, cell));
  };

  return (
    <div ref={wrap}>
      <h3>Hash index of store {store}</h3>
      {note && <p className="muted small" data-testid="fawnds-index-note">{note}</p>}
      <canvas ref={canvas} className="fawnds-canvas" tabIndex={0} role="img" data-testid="fawnds-index"
        aria-label="The store's hash index: one square per bucket, filled when valid; the last lookup's probes outlined and numbered. Arrow keys move between buckets."
        aria-describedby="fawnds-index-readout" onKeyDown={onKey} onPointerMove={onPointer} onPointerDown={onPointer} />
      <p id="fawnds-index-readout" className="readout small" aria-live="polite">{readout}</p>
    </div>
  );
}
