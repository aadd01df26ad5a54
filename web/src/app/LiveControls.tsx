/**
 * What the Devices lab's live views share: the play / pause / step / reset / speed controls
 * with the virtual time beside them, the keyboard shortcuts (space: play or pause; period:
 * step), and the frame loop that advances a session by wall time × speed while playing and
 * hands each frame's snapshot to the view. The wall clock is read here, in the app layer, and
 * passed down; the model and the views never read it. A view with an `auto` speed
 * (autoSpeed.ts) lets an AutoClock choose the speed frame by frame.
 */
import { useEffect, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
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

/** The key and value fields of a put / get row (ids `<prefix>-key`, `<prefix>-value`). */
export function KeyValueFields({ prefix, keyText, value, onKey, onValue }: {
  prefix: string; keyText: string; value: string; onKey: (k: string) => void; onValue: (v: string) => void;
}) {
  return (
    <>
      <Field id={`${prefix}-key`} label="key">
        <input id={`${prefix}-key`} type="text" value={keyText} onChange={(e) => onKey(e.target.value)} autoComplete="off" spellCheck={false} />
      </Field>
      <Field id={`${prefix}-value`} label="value (put)">
        <input id={`${prefix}-value`} type="text" value={value} onChange={(e) => onValue(e.target.value)} autoComplete="off" spellCheck={false} />
      </Field>
    </>
  );
}

/** A running session as the loop sees it. */
export interface Steppable<S> {
  advance(dtNs: number, maxEvents: number): number;
  snapshot(): S;
  /** What the auto speed slows down for, as a phase (0: nothing; FAWN-KV, FAWN-DS sessions). */
  busy?(): number;
}

/** Events a session may run in one frame (a bound, so a fast speed cannot freeze the page). */
const MAX_EVENTS_PER_FRAME = 200_000;

/**
 * Calls `onFrame(snapshot, wallMs)` on every animation frame while `active`, after advancing
 * the session by the frame's wall time × speed when `playing` (or as `auto` chooses, when it
 * holds a clock). Frames longer than 100 ms (a background tab) count as 100 ms.
 */
export function useFrameLoop<S>(
  session: RefObject<Steppable<S> | null>,
  playing: RefObject<boolean>,
  nsPerSec: RefObject<number>,
  active: boolean,
  onFrame: (snap: S, wallMs: number) => void,
  auto?: RefObject<AutoClock<S> | null>,
): void {
  const frameRef = useRef(onFrame);
  useEffect(() => {
    frameRef.current = onFrame;
  });
  useEffect(() => {
    if (!active) return;
    let raf = 0;
    let last = performance.now();
    const tick = (now: number) => {
      const dtMs = Math.min(100, Math.max(0, now - last));
      last = now;
      const s = session.current;
      if (s) {
        const clock = auto?.current ?? null;
        if (playing.current) {
          if (clock) clock.advance(s, dtMs, now, MAX_EVENTS_PER_FRAME);
          else s.advance((dtMs / 1000) * nsPerSec.current, MAX_EVENTS_PER_FRAME);
        }
        const snap = s.snapshot();
        clock?.observe(snap, (s.busy?.() ?? 0) !== 0, now);
        frameRef.current(snap, now);
      }
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [active, session, playing, nsPerSec, auto]);
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
}

export function LiveControls(p: ControlsProps) {
  return (
    <div className="live-controls" role="group" aria-label={p.label}>
      <button type="button" className="primary" onClick={() => p.onPlay(!p.playing)} aria-pressed={p.playing}>
        {p.playing ? 'Pause' : 'Play'}
      </button>
      <button type="button" onClick={p.onStep} title="Run the next event (key: .)">Step</button>
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
