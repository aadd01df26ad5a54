/**
 * One card per running store, side by side (stacked on a phone): its name on its colour's edge,
 * its structure drawn small (structureScenes.ts; the canvas painted from the frame loop through
 * the handle, at its card's width), the same structure in one sentence, what its background
 * actor is doing, its queue and its last failure. The sentences come from the snapshot React holds (a few times a
 * second); the canvases from every tick.
 */
import { useImperativeHandle, useRef, type Ref } from 'react';
import { canvasWidth } from '../../app/viewSize';
import { paintScene } from '../../viz/canvasScene';
import { fmt } from '../../viz/format';
import { backgroundLine, structureSummary } from './storesReadout';
import { storeStyle } from './storesPalette';
import type { StoresSnapshot, StoreStructure } from './storesTypes';
import { storeScene } from './structureScenes';

export interface StoreCanvasHandle {
  paint(st: StoreStructure): void;
}

/** A card's canvas never lays out narrower than this (a phone's card is about 300 px). */
const MIN_CARD_CANVAS = 180;

function StoreCanvas({ ref, label, kind }: { ref: Ref<StoreCanvasHandle>; label: string; kind: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  useImperativeHandle(ref, () => ({
    paint(st) {
      if (canvas.current) paintScene(canvas.current, storeScene(st, canvasWidth(wrap.current, 260, MIN_CARD_CANVAS)), window.devicePixelRatio || 1);
    },
  }), []);
  return (
    <div ref={wrap} className="canvas-wrap">
      <canvas ref={canvas} className="stores-canvas" role="img" aria-label={label} data-testid={`stores-structure-${kind}`} />
    </div>
  );
}

interface Props {
  snap: StoresSnapshot;
  /** Where each card's canvas handle is kept, by store kind (the frame loop paints through them). */
  handles: React.RefObject<Map<string, StoreCanvasHandle>>;
}

export function StoreCards({ snap, handles }: Props) {
  return (
    <div className="stores-cards" data-testid="stores-cards">
      {snap.stores.map((s) => {
        const summary = structureSummary(s.structure);
        const work = backgroundLine(s.structure);
        return (
          <article key={s.kind} className="stores-card" data-store={s.kind} style={{ borderTopColor: storeStyle(s.kind).colour }} aria-labelledby={`stores-card-${s.kind}`}>
            <h3 id={`stores-card-${s.kind}`}>{s.label}</h3>
            <StoreCanvas kind={s.kind} label={`${s.label}'s structure. ${summary}`}
              ref={(h: StoreCanvasHandle | null) => {
                if (h) handles.current.set(s.kind, h);
                else handles.current.delete(s.kind);
              }} />
            <p className="small stores-summary" data-testid={`stores-summary-${s.kind}`}>{summary}</p>
            <p className="small stores-status">
              {work ? <span className="stores-work">{work}</span> : <span className="muted">no background work</span>}
              {s.queued > 0 && <span className="stores-queued"> · {fmt(s.queued)} {s.queued === 1 ? 'op' : 'ops'} waiting</span>}
            </p>
            {(s.errors ?? 0) > 0 && s.last_error && <p className="small error" data-testid={`stores-store-error-${s.kind}`}>{fmt(s.errors ?? 0)} failed; the last: {s.last_error}</p>}
          </article>
        );
      })}
    </div>
  );
}
