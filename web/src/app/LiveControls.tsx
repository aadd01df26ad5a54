/**
 * What the Devices lab's live views share: the play / pause / step / reset / speed controls
 * with the virtual time beside them, the keyboard shortcuts (space: play or pause; period:
 * step), and the frame loop that ticks a session (model/session: in the session worker) by wall
 * time × speed while playing and hands each tick's snapshot to the view. The wall clock is read here, in the app layer, and
 * passed down; the model and the views never read it. A view with an `auto` speed
 * (autoSpeed.ts) lets an AutoClock choose the speed frame by frame.
 */
import { useEffect, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import type { LiveSessionClient, TickRequest, TickResult, ViewRequest } from '../model/session/client';
import type { Columns } from '../model/session/protocol';
import type { CoreError } from '../model/types';
import { fmtNs } from '../viz/format';
import type { AutoClock } from './autoSpeed';

export interface Speed {
  label: string;
  /** Virtual nanoseconds per wall-clock second (0 for auto). */
  nsPerSec: number;
  /** The speed the view's AutoClock chooses, slowing down around events. */
  auto?: boolean;
}

/** The "auto" entry of a speed list (its view gives useLiveSession an AutoPolicy). */
export const AUTO_SPEED: Speed = { label: 'auto (slow motion around events)', nsPerSec: 0, auto: true };

/** Speeds labelled from their virtual time per wall second: [1e6] → "1 ms per second". */
export function speedsOf(nsPerSec: number[]): Speed[] {
  return nsPerSec.map((n) => ({ label: `${fmtNs(n)} per second`, nsPerSec: n }));
}

/** Events a session may run in one tick (a bound, so a fast speed cannot stall the worker for long). */
const MAX_EVENTS_PER_FRAME = 200_000;

/** What a frame draws: a tick's snapshot and the column views fetched with it. */
export interface FrameResult<S> {
  snap: S;
  views: Record<string, Columns | CoreError>;
  version: number;
  busy: number;
}

/**
 * While `active`, sends the session at most one tick per animation frame (none while one is in
 * flight) and hands each result to `onFrame(result, wallMs)` on the next frame. A tick advances
 * by the wall time since the last one × speed when `playing` (or as `auto` plans it, when it
 * holds a clock; 0 when paused: a look) and fetches the column views `views` asks for. Wall
 * time over 100 ms between ticks (a background tab, a long advance) counts as 100 ms.
 */
export function useFrameLoop<S>(
  session: RefObject<LiveSessionClient<S> | null>,
  playing: RefObject<boolean>,
  nsPerSec: RefObject<number>,
  active: boolean,
  onFrame: (result: FrameResult<S>, wallMs: number) => void,
  auto?: RefObject<AutoClock<S> | null>,
  views?: RefObject<((wallMs: number) => ViewRequest[] | undefined) | undefined>,
): void {
  const frameRef = useRef(onFrame);
  useEffect(() => {
    frameRef.current = onFrame;
  });
  useEffect(() => {
    if (!active) return;
    let raf = 0;
    let stopped = false;
    let lastSent = performance.now();
    let inflight: LiveSessionClient<S> | null = null;
    let ready: { r: TickResult<S>; s: LiveSessionClient<S> } | null = null;
    const frame = (now: number) => {
      const s = session.current;
      const clock = auto?.current ?? null;
      if (ready) {
        const { r, s: from } = ready;
        ready = null;
        if (from === s) {
          clock?.landed(r.busyBefore, r.busy, now);
          clock?.observe(r.snapshot, r.busy !== 0, now);
          frameRef.current({ snap: r.snapshot, views: r.views, version: r.version, busy: r.busy }, now);
        }
      }
      if (s && inflight !== s && !s.closed) {
        const dtMs = Math.min(100, Math.max(0, now - lastSent));
        lastSent = now;
        const req: TickRequest = { dtNs: 0, maxEvents: MAX_EVENTS_PER_FRAME };
        if (playing.current) {
          if (clock) Object.assign(req, clock.plan(dtMs, now, s.busy), { plannedBusy: s.busy });
          else req.dtNs = (dtMs / 1000) * nsPerSec.current;
        }
        const v = views?.current?.(now);
        if (v && v.length > 0) req.views = v;
        inflight = s;
        void s.tick(req).then((r) => {
          if (inflight === s) inflight = null;
          if (!stopped && r.ok) ready = { r, s };
        });
      } else if (!s) {
        lastSent = now;
      }
      raf = requestAnimationFrame(frame);
    };
    raf = requestAnimationFrame(frame);
    return () => {
      stopped = true;
      cancelAnimationFrame(raf);
    };
  }, [active, session, playing, nsPerSec, auto, views]);
}

/** Space plays or pauses, period steps, unless the key is typed into a form field. */
export function liveKeys(toggle: () => void, step: () => void) {
  return (e: KeyboardEvent) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLButtonElement) return;
    if (e.key === ' ') {
      e.preventDefault();
      toggle();
    } else if (e.key === '.') {
      e.preventDefault();
      step();
    }
  };
}

interface ControlsProps {
  /** Prefix for element ids (two live views can share a page). */
  idPrefix: string;
  label: string;
  playing: boolean;
  onPlay: (play: boolean) => void;
  onStep: () => void;
  onReset: () => void;
  speeds: Speed[];
  speedIndex: number;
  onSpeed: (index: number) => void;
  timeNs: number | null;
  /** With the auto speed: the speed it runs at now, and why ("slow motion: join in progress"). */
  auto?: { nsPerSec: number; label: string } | null;
  /** Whether the session has sent its first snapshot (useLiveSession's `ready`): Step waits for it. */
  ready?: boolean;
}

export function LiveControls(p: ControlsProps) {
  return (
    <div className="live-controls" role="group" aria-label={p.label}>
      <button type="button" className="primary" onClick={() => p.onPlay(!p.playing)} aria-pressed={p.playing}>
        {p.playing ? 'Pause' : 'Play'}
      </button>
      <button type="button" onClick={p.onStep} disabled={p.ready === false}
        title={p.ready === false ? 'Waits for the session to start' : 'Run the next event (key: .)'}>Step</button>
      <button type="button" onClick={p.onReset}>Reset</button>
      <label htmlFor={`${p.idPrefix}-speed`}>speed</label>
      <select id={`${p.idPrefix}-speed`} value={p.speedIndex} onChange={(e) => p.onSpeed(Number(e.target.value))}>
        {p.speeds.map((s, i) => <option key={s.label} value={i}>{s.label}</option>)}
      </select>
      <span className="muted small" data-testid={`${p.idPrefix}-time`}>virtual time {p.timeNs === null ? '—' : fmtNs(p.timeNs)}</span>
      {p.auto && (
        <span className={`small auto-speed${p.auto.label ? ' slow' : ''}`} data-testid={`${p.idPrefix}-auto`}>
          {fmtNs(p.auto.nsPerSec)} per second{p.auto.label ? ` · ${p.auto.label}` : ''}
        </span>
      )}
    </div>
  );
}

/** Reads a number typed into a field, or keeps the previous value while the text is not one. */
export function numberFrom(text: string, fallback: number): number {
  const v = Number(text);
  return Number.isFinite(v) && text.trim() !== '' ? v : fallback;
}

/** A labelled configuration field: the label names the control (and nothing else). */
export function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}
