/**
 * The rates chart (timelineScene.ts): the session's `timeline` columns, painted from the frame
 * loop at its container's width whenever new columns arrive. The numbers behind it are the
 * counters table's; the accessible name says what it shows.
 */
import { useImperativeHandle, useRef, type Ref } from 'react';
import { canvasWidth } from '../../app/viewSize';
import { paintScene } from '../../viz/canvasScene';
import type { ConaEvent } from './conaTypes';
import { timelineScene, type ConaTimeline } from './timelineScene';

export interface TimelineCanvasHandle {
  paint(tl: ConaTimeline | null, nowNs: number, events: readonly ConaEvent[]): void;
}

export function TimelineCanvas({ ref, label }: { ref: Ref<TimelineCanvasHandle>; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  useImperativeHandle(ref, () => ({
    paint(tl, nowNs, events) {
      if (canvas.current) paintScene(canvas.current, timelineScene(tl, nowNs, events, canvasWidth(wrap.current, 800)), window.devicePixelRatio || 1);
    },
  }), []);
  return (
    <div ref={wrap} className="canvas-wrap">
      <canvas ref={canvas} className="fawnds-canvas cona-canvas" role="img" aria-label={label} data-testid="cona-timeline" />
    </div>
  );
}
