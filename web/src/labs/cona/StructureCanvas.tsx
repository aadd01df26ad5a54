/**
 * The structure canvas (structureScene.ts), painted from the frame loop through a handle at
 * its container's width. A cell is picked by the pointer (hover or tap) or from the keyboard
 * (the canvas is focusable: arrow keys move between slots, Escape lets go); the view shows the
 * picked cell's figures in text beside the canvas.
 */
import { useImperativeHandle, useRef, type KeyboardEvent, type PointerEvent, type Ref } from 'react';
import { canvasPoint, canvasWidth } from '../../app/viewSize';
import { paintScene } from '../../viz/canvasScene';
import type { ConaSnapshot } from './conaTypes';
import { levelCount, slotAt, structureLayout, structureScene } from './structureScene';

export interface Picked {
  level: number;
  slot: number;
}

export interface StructureCanvasHandle {
  /** `staleLookup`: the structure has changed under the last lookup (its path fades). */
  paint(sn: ConaSnapshot, recentNs: number, staleLookup: boolean): void;
}

interface Props {
  ref: Ref<StructureCanvasHandle>;
  label: string;
  onPick: (p: Picked | null) => void;
}

export function StructureCanvas({ ref, label, onPick }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const last = useRef<{ sn: ConaSnapshot; recentNs: number; staleLookup: boolean; width: number } | null>(null);
  const picked = useRef<Picked | null>(null);

  const draw = () => {
    const c = canvas.current;
    const l = last.current;
    if (!c || !l) return;
    paintScene(c, structureScene(l.sn, l.width, { recentNs: l.recentNs, staleLookup: l.staleLookup, selected: picked.current }), window.devicePixelRatio || 1);
  };

  useImperativeHandle(ref, () => ({
    paint(sn, recentNs, staleLookup) {
      last.current = { sn, recentNs, staleLookup, width: canvasWidth(wrap.current, 800) };
      draw();
    },
  }), []);

  const pick = (p: Picked | null) => {
    const same = p && picked.current && p.level === picked.current.level && p.slot === picked.current.slot;
    if (same || (!p && !picked.current)) return;
    picked.current = p;
    onPick(p);
    draw();
  };

  const onPointer = (e: PointerEvent<HTMLCanvasElement>) => {
    const l = last.current;
    if (!l || !canvas.current) return;
    const [x, y] = canvasPoint(canvas.current, l.width, e.clientX, e.clientY);
    const s = slotAt(structureLayout(l.sn, l.width), x, y);
    if (s) pick({ level: s.level, slot: s.slot });
  };

  const onKey = (e: KeyboardEvent<HTMLCanvasElement>) => {
    const l = last.current;
    const n = l ? levelCount(l.sn) : 0;
    if (n === 0) return;
    const p = picked.current ?? { level: 1, slot: 0 };
    const moves: Record<string, Picked> = {
      ArrowRight: { level: p.level, slot: Math.min(2, p.slot + 1) },
      ArrowLeft: { level: p.level, slot: Math.max(0, p.slot - 1) },
      ArrowDown: { level: Math.min(n, p.level + 1), slot: p.slot },
      ArrowUp: { level: Math.max(1, p.level - 1), slot: p.slot },
    };
    if (e.key === 'Escape') {
      pick(null);
      return;
    }
    const next = moves[e.key];
    if (!next) return;
    e.preventDefault();
    pick(picked.current ? next : p);
  };

  return (
    <div ref={wrap} className="canvas-wrap">
      <canvas ref={canvas} className="fawnds-canvas cona-canvas" role="img" aria-label={label} data-testid="cona-structure" tabIndex={0}
        aria-keyshortcuts="ArrowUp ArrowDown ArrowLeft ArrowRight Escape" onPointerMove={onPointer} onPointerDown={onPointer}
        onPointerLeave={(e) => { if (e.pointerType === 'mouse') pick(null); }} onKeyDown={onKey} onBlur={() => pick(null)} />
    </div>
  );
}
