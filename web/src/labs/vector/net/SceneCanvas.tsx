/**
 * A canvas the view paints from its frame loop through a handle: `paint(build)` lays the
 * scene out at the canvas's container width (down to a phone's) and draws it at the device
 * pixel ratio. The accessible name says what the picture shows; the numbers are in text beside it.
 */
import { useImperativeHandle, useRef, type Ref } from 'react';
import { canvasWidth } from '../../../app/viewSize';
import { paintScene, type Scene } from '../../../viz/canvasScene';

export interface SceneCanvasHandle {
  paint(build: (width: number) => Scene): void;
}

/** `focusable`: in the tab order, so a view's keys (Space plays or pauses, period steps) reach it. */
export function SceneCanvas({ ref, label, testId, focusable = false }: { ref: Ref<SceneCanvasHandle>; label: string; testId: string; focusable?: boolean }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  useImperativeHandle(ref, () => ({
    paint(build) {
      const c = canvas.current;
      if (!c) return;
      paintScene(c, build(canvasWidth(wrap.current, 800)), window.devicePixelRatio || 1);
    },
  }), []);
  return (
    <div ref={wrap} className="canvas-wrap">
      <canvas ref={canvas} className="fawnds-canvas vnet-canvas" role="img" aria-label={label} data-testid={testId}
        tabIndex={focusable ? 0 : undefined} />
    </div>
  );
}
