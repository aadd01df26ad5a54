/**
 * The shared rates chart (iopsScene.ts), painted from the frame loop at its container's width.
 * A moment is picked by the pointer or from the keyboard (the canvas is focusable: the arrow
 * keys step through the samples, Home and End jump, Escape lets go); the picked moment's rates
 * per store are read out in text under the chart (the `readout` callback).
 */
import { useImperativeHandle, useRef, type KeyboardEvent, type PointerEvent, type Ref } from 'react';
import { canvasPoint, canvasWidth } from '../../app/viewSize';
import { paintScene } from '../../viz/canvasScene';
import { nearestSample, sampleLine, type IopsHistory } from './iopsHistory';
import { iopsScene, sampleAtX } from './iopsScene';

export interface IopsChartHandle {
  paint(h: IopsHistory): void;
}

interface Props {
  ref: Ref<IopsChartHandle>;
  label: string;
  /** The picked moment's rates in words ('' when none is picked). */
  readout: (text: string) => void;
}

export function IopsChart({ ref, label, readout }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const last = useRef<{ h: IopsHistory; width: number } | null>(null);
  /** The picked moment (virtual ns), or null. */
  const cursor = useRef<number | null>(null);
  const said = useRef('');

  const draw = () => {
    const l = last.current;
    if (!canvas.current || !l) return;
    const i = cursor.current === null ? -1 : nearestSample(l.h, cursor.current);
    paintScene(canvas.current, iopsScene(l.h, l.width, i), window.devicePixelRatio || 1);
    const text = i >= 0 ? sampleLine(l.h, i) : '';
    if (text !== said.current) {
      said.current = text;
      readout(text);
    }
  };

  useImperativeHandle(ref, () => ({
    paint(h) {
      last.current = { h, width: canvasWidth(wrap.current, 800) };
      draw();
    },
  }));

  const pickIndex = (i: number) => {
    const l = last.current;
    cursor.current = l && i >= 0 && i < l.h.t.length ? l.h.t[i]! : null;
    draw();
  };

  const onPointer = (e: PointerEvent<HTMLCanvasElement>) => {
    const l = last.current;
    if (!l || !canvas.current) return;
    const [x] = canvasPoint(canvas.current, l.width, e.clientX, e.clientY);
    pickIndex(sampleAtX(l.h, l.width, x));
  };

  const onKey = (e: KeyboardEvent<HTMLCanvasElement>) => {
    const l = last.current;
    const n = l?.h.t.length ?? 0;
    if (!l || n === 0) return;
    if (e.key === 'Escape') {
      pickIndex(-1);
      return;
    }
    const at = cursor.current === null ? n - 1 : nearestSample(l.h, cursor.current);
    const step = e.shiftKey ? 10 : 1;
    const to: Record<string, number> = { ArrowLeft: Math.max(0, at - step), ArrowRight: Math.min(n - 1, at + step), Home: 0, End: n - 1 };
    const next = to[e.key];
    if (next === undefined) return;
    e.preventDefault();
    e.stopPropagation();
    pickIndex(cursor.current === null ? at : next);
  };

  return (
    <div ref={wrap} className="canvas-wrap stores-chart-wrap">
      <canvas ref={canvas} className="fawnds-canvas stores-chart" role="img" aria-label={label} data-testid="stores-iops" tabIndex={0}
        aria-keyshortcuts="ArrowLeft ArrowRight Home End Escape" onPointerMove={onPointer} onPointerDown={onPointer}
        onPointerLeave={(e) => { if (e.pointerType === 'mouse') pickIndex(-1); }} onKeyDown={onKey} onBlur={() => pickIndex(-1)} />
    </div>
  );
}
