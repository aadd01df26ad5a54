/**
 * The ring's canvas host, shared by the FAWN-KV lab and the Cluster page: two canvases (the
 * static layer painted offscreen only when the ring, the nodes' states, R, the front-ends or
 * the width change; the moving layer over it on every `paint`), the focused VID (by name, as
 * indices change with the ring) followed by pointer hover, pinned by a tap or click, and moved
 * by the keyboard (arrows one VID, PageUp/PageDown a sixteenth of the ring, Home/End, Enter
 * pins, Escape lets go), and the readout naming the focused VID's range and chains.
 * The page owns the data: it calls `paint(frame)` from its animation frame or status effect.
 */
import { useImperativeHandle, useRef, useState, type KeyboardEvent, type PointerEvent, type Ref } from 'react';
import type { FawnkvJoin, FawnkvMessage } from '../model/ringTypes';
import { paintOver, paintScene } from '../viz/canvasScene';
import { ringBaseScene, type RingBaseOptions } from '../viz/ringBase';
import { vidAtPoint, type RingLayout } from '../viz/ringLayout';
import { vidCount, vidName, type RingIndex } from '../viz/ringModel';
import { ringOverlayScene } from '../viz/ringOverlay';
import { describeVid } from '../viz/ringText';
import { canvasWidth } from './viewSize';

/** What one paint shows: the ring (and a key that changes exactly when it does) and the moving parts at `nowNs`. */
export interface RingFrame {
  ring: RingIndex;
  ringKey: string;
  replication: number;
  nodes: RingBaseOptions['nodes'];
  frontEnds: RingBaseOptions['frontEnds'];
  nowNs: number;
  messages: FawnkvMessage[];
  joins: FawnkvJoin[];
}

export interface RingCanvasHandle {
  /** Paints `frame` (the static layer again only if it changed); returns the width it laid out at (0 when it did not paint). */
  paint(frame: RingFrame): number;
  /** Focuses the VID named `name` ("node/index"), pinned or not. */
  focusVid(name: string, pinned: boolean): void;
}

export const RING_HINT = 'Point at or tap a VID on the ring (or focus the ring and use the arrow keys) to read its range and chains; a tap pins it.';

/** Where the focus goes for a key: arrows step one VID, PageUp/PageDown a sixteenth of the ring, Home/End the ends. */
export function moveFocus(key: string, current: number, n: number): number | null {
  const at = current < 0 ? 0 : current;
  const page = Math.max(1, Math.ceil(n / 16));
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return current < 0 ? 0 : (at + 1) % n;
    case 'ArrowLeft':
    case 'ArrowUp':
      return current < 0 ? n - 1 : (at - 1 + n) % n;
    case 'PageDown':
      return (at + page) % n;
    case 'PageUp':
      return (((at - page) % n) + n) % n;
    case 'Home':
      return 0;
    case 'End':
      return n - 1;
    default:
      return null;
  }
}

interface Props {
  ref?: Ref<RingCanvasHandle>;
  testId: string;
  readoutId: string;
  ariaLabel: string;
}

type Focus = { name: string; pinned: boolean } | null;

export function RingCanvas({ ref, testId, readoutId, ariaLabel }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const base = useRef<HTMLCanvasElement | null>(null);
  const baseKey = useRef('');
  const layout = useRef<RingLayout | null>(null);
  const last = useRef<RingFrame | null>(null);
  const focus = useRef<Focus>(null);
  const readoutKey = useRef('');
  const [readout, setReadout] = useState(RING_HINT);

  const focusIndex = (): number | null => {
    const f = focus.current;
    const r = last.current?.ring;
    return f && r ? (r.byName.get(f.name) ?? null) : null;
  };

  /** The readout, set only when what it says changes (not every frame). */
  const updateReadout = (fr: RingFrame) => {
    const i = focusIndex();
    const f = focus.current;
    const key = `${fr.ringKey}|${f?.name}|${f?.pinned}`;
    if (key === readoutKey.current) return;
    readoutKey.current = key;
    setReadout(i === null ? RING_HINT : `${describeVid(fr.ring, i)}${f?.pinned ? ' Pinned: Enter, Escape or a click lets go.' : ''}`);
  };

  const paint = (fr: RingFrame): number => {
    last.current = fr;
    if (focus.current && focusIndex() === null) focus.current = null; // the ring changed under it
    updateReadout(fr);
    const c = canvas.current;
    if (!c || vidCount(fr.ring.vids) === 0) return 0;
    const dpr = window.devicePixelRatio || 1;
    const width = canvasWidth(wrap.current, 760);
    const key = `${fr.ringKey}|${width}|${dpr}|${fr.replication}|${JSON.stringify(fr.frontEnds.map((f) => [f.start, f.end]))}|${fr.nodes.map((x) => `${x.id}:${x.state}`).join()}`;
    if (key !== baseKey.current || !base.current || !layout.current) {
      base.current ??= document.createElement('canvas');
      const { scene, layout: L } = ringBaseScene(fr.ring, { width, replication: fr.replication, nodes: fr.nodes, frontEnds: fr.frontEnds });
      paintScene(base.current, scene, dpr);
      layout.current = L;
      baseKey.current = key;
    }
    paintOver(c, base.current, ringOverlayScene(fr.ring, layout.current, {
      focus: focusIndex(), pinned: focus.current?.pinned ?? false, nowNs: fr.nowNs, messages: fr.messages, joins: fr.joins, frontEnds: fr.frontEnds,
    }), dpr);
    return width;
  };

  const setFocus = (f: Focus) => {
    focus.current = f;
    if (last.current) paint(last.current);
  };

  useImperativeHandle(ref, () => ({ paint, focusVid: (name, pinned) => setFocus({ name, pinned }) }));

  const hit = (e: PointerEvent<HTMLCanvasElement>): number => {
    const r = last.current?.ring;
    const L = layout.current;
    if (!r || !L) return -1;
    const rect = e.currentTarget.getBoundingClientRect();
    const scale = rect.width > 0 ? L.width / rect.width : 1;
    return vidAtPoint(r, L, (e.clientX - rect.left) * scale, (e.clientY - rect.top) * scale, focusIndex());
  };
  const onPointerMove = (e: PointerEvent<HTMLCanvasElement>) => {
    if (focus.current?.pinned) return;
    const i = hit(e);
    if (i >= 0 && last.current) setFocus({ name: vidName(last.current.ring.vids, i), pinned: false });
  };
  const onPointerDown = (e: PointerEvent<HTMLCanvasElement>) => {
    const i = hit(e);
    if (i < 0 || !last.current) return;
    const name = vidName(last.current.ring.vids, i);
    const f = focus.current;
    setFocus({ name, pinned: !(f && f.pinned && f.name === name) });
  };
  const onPointerLeave = () => {
    if (focus.current && !focus.current.pinned) setFocus(null);
  };
  const onKey = (e: KeyboardEvent) => {
    const r = last.current?.ring;
    if (!r || vidCount(r.vids) === 0) return;
    const f = focus.current;
    if (e.key === 'Escape') {
      setFocus(null);
    } else if (e.key === 'Enter') {
      setFocus({ name: f ? f.name : vidName(r.vids, 0), pinned: !f?.pinned });
    } else {
      const next = moveFocus(e.key, focusIndex() ?? -1, vidCount(r.vids));
      if (next === null) return;
      setFocus({ name: vidName(r.vids, next), pinned: f?.pinned ?? false });
    }
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <>
      <div ref={wrap} className="canvas-wrap">
        <canvas ref={canvas} className="fawnds-canvas" tabIndex={0} role="img" data-testid={testId} aria-label={ariaLabel}
          aria-describedby={readoutId} onKeyDown={onKey} onPointerMove={onPointerMove} onPointerDown={onPointerDown} onPointerLeave={onPointerLeave} />
      </div>
      <p id={readoutId} className="readout small" aria-live="polite">{readout}</p>
    </>
  );
}
