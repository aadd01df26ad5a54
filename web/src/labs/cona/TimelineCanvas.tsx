/**
 * The rates chart (timelineScene.ts): the session's `timeline` columns, painted from the frame
 * loop at its container's width whenever new columns arrive, and again when the width changes
 * (a paused session brings none). The numbers behind it are the counters table's; the
 * accessible name says what it shows.
 */
import { useImperativeHandle, useRef, type Ref } from 'react';
import { canvasWidth } from '../../app/viewSize';
import { paintScene } from '../../viz/canvasScene';
import type { ConaEvent } from './conaTypes';
import { timelineScene, type ConaTimeline } from './timelineScene';

export interface TimelineCanvasHandle {
  /** New columns (or none: an empty chart). */
  paint(tl: ConaTimeline | null, nowNs: number, events: readonly ConaEvent[]): void;
  /** Paints the last columns again if the container's width changed. */
  fit(): void;
}

export function TimelineCanvas({ ref, label }: { ref: Ref<TimelineCanvasHandle>; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const last = useRef<{ tl: ConaTimeline | null; nowNs: number; events: readonly ConaEvent[]; width: number } | null>(null);
  const draw = () => {
    const l = last.current;
    if (canvas.current && l) paintScene(canvas.current, timelineScene(l.tl, l.nowNs, l.events, l.width), window.devicePixelRatio || 1);
  };
  useImperativeHandle(ref, () => ({
    paint(tl, nowNs, events) {
      last.current = { tl, nowNs, events, width: canvasWidth(wrap.current, 800) };
      draw();
    },
    fit() {
      const l = last.current;
      const width = canvasWidth(wrap.current, 800);
      if (!l || l.width === width) return;
      l.width = width;
      draw();
    },
  }), []);
  return (
    <div ref={wrap} className="canvas-wrap">
      <canvas ref={canvas} className="fawnds-canvas cona-canvas" role="img" aria-label={label} data-testid="cona-timeline" />
    </div>
  );
}
