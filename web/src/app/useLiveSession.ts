/**
 * The lifecycle the Devices lab's live views share: the configuration (replaced by a lesson
 * scenario), a session created from it and disposed when a structural field, the seed or a
 * reset asks for a new one, the other fields applied to the running session in place, play /
 * pause / step / speed (with an `auto` speed when the spec gives an AutoPolicy), stopping when
 * the view is hidden, and the frame loop that hands each frame's snapshot to the view (and to
 * React at most five times a second).
 */
import { useEffect, useRef, useState } from 'react';
import type { CoreError } from '../model/types';
import { isCoreError } from '../model/core';
import { changedFields } from '../model/scenario';
import { AutoClock, type AutoPolicy } from './autoSpeed';
import { useCore } from './coreContext';
import { useFrameLoop, type Speed } from './LiveControls';
import type { LiveRequest } from './labModule';

/** What the hook needs of a session. */
export interface LiveSessionLike<C, S> {
  advance(dtNs: number, maxEvents: number): number;
  step(): boolean;
  busy?(): number;
  reconfigure(patch: C): string;
  snapshot(): S;
  dispose(): void;
}

export interface LiveSessionSpec<C, S, L extends LiveSessionLike<C, S>> {
  request: LiveRequest<C> | null;
  defaults: Required<C>;
  speeds: Speed[];
  defaultSpeed: number;
  active: boolean;
  create: (core: NonNullable<ReturnType<typeof useCore>['core']>, config: Required<C>, seed: string) => L | CoreError;
  /** The fields that need a new session when they change. */
  structural: (c: Required<C>) => Partial<C>;
  /** The fields a running session takes through reconfigure(). */
  running: (c: Required<C>) => Partial<C>;
  /** Draws one frame. */
  draw: (snap: S, wallMs: number) => void;
  /** Called when a new session starts (to reset animations). */
  onNew?: () => void;
  /**
   * Told, after each change the user makes through update(), the fields that now differ from
   * the configuration the view last took (the defaults, or a scenario's): the page keeps them
   * in its URL (LabPage).
   */
  onEdit?: (changed: Partial<C>) => void;
  /** How the `auto` entry of `speeds` (AUTO_SPEED) chooses its speed. */
  auto?: AutoPolicy<S>;
  /** Whether a lesson scenario starts the clock (its point takes virtual time to show). */
  playOnScenario?: boolean;
}

export function useLiveSession<C, S, L extends LiveSessionLike<C, S>>(spec: LiveSessionSpec<C, S, L>) {
  const { core } = useCore();
  const session = useRef<L | null>(null);
  const playing = useRef(false);
  const speed = useRef(spec.speeds[spec.defaultSpeed]!.nsPerSec);
  const clock = useRef<AutoClock<S> | null>(null);
  const autoPolicy = useRef<AutoPolicy<S> | null>(spec.auto ?? null);
  if (clock.current === null && spec.speeds[spec.defaultSpeed]!.auto && autoPolicy.current) clock.current = new AutoClock(autoPolicy.current);
  const lastUi = useRef(0);
  const specRef = useRef(spec);
  specRef.current = spec;
  const [config, setConfig] = useState<Required<C>>(spec.defaults);
  const [seed, setSeed] = useState(1);
  const [isPlaying, setPlaying] = useState(false);
  const [speedIdx, setSpeedIdx] = useState(spec.defaultSpeed);
  const [snap, setSnap] = useState<S | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [auto, setAuto] = useState<{ nsPerSec: number; label: string } | null>(null);
  const [generation, setGeneration] = useState(0);
  /** The configuration the view last took, and whether the user has changed it since. */
  const base = useRef<Required<C>>(spec.defaults);
  const edited = useRef(false);

  // A scenario from the lesson replaces the configuration and starts a new session.
  useEffect(() => {
    if (!spec.request) return;
    base.current = { ...specRef.current.defaults, ...spec.request.config };
    edited.current = false;
    setConfig(base.current);
    setSeed(spec.request.seed);
    setGeneration((g) => g + 1);
    if (specRef.current.playOnScenario) setPlay(true);
  }, [spec.request]);

  useEffect(() => {
    if (!edited.current) return;
    edited.current = false;
    specRef.current.onEdit?.(changedFields(config, base.current) as Partial<C>);
  }, [config]);

  const structuralKey = JSON.stringify(spec.structural(config));
  const runningKey = JSON.stringify(spec.running(config));

  // A new session whenever its structure changes, on a new seed, or on reset.
  useEffect(() => {
    if (!core) return;
    const s = specRef.current.create(core, config, String(seed));
    if (isCoreError(s)) {
      setError(s.message);
      return;
    }
    setError(null);
    session.current = s;
    clock.current?.reset();
    specRef.current.onNew?.();
    setSnap(null);
    return () => {
      s.dispose();
      if (session.current === s) session.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the structural fields; the rest apply in place below
  }, [core, structuralKey, seed, generation]);

  // The other fields change the running session.
  useEffect(() => {
    const s = session.current;
    if (!s) return;
    const msg = s.reconfigure(JSON.parse(runningKey) as C);
    setError(msg || null);
  }, [runningKey]);

  function setPlay(p: boolean) {
    playing.current = p;
    setPlaying(p);
  }
  // A hidden view stops.
  useEffect(() => {
    if (!spec.active) setPlay(false);
  }, [spec.active]);

  useFrameLoop(session, playing, speed, spec.active, (sn, now) => {
    specRef.current.draw(sn, now);
    if (now - lastUi.current > 200 || lastUi.current === 0) {
      lastUi.current = now;
      setSnap(sn);
      const c = clock.current;
      setAuto((prev) => {
        const next = c ? { nsPerSec: c.nsPerSec(now), label: c.label() } : null;
        return prev && next && prev.nsPerSec === next.nsPerSec && prev.label === next.label ? prev : next;
      });
    }
  }, clock);

  return {
    /** The running session (null before the core loads or after a bad configuration). */
    session,
    config,
    update: (patch: Partial<Required<C>>) => {
      edited.current = true;
      setConfig((c) => ({ ...c, ...patch }));
    },
    snap,
    error,
    isPlaying,
    togglePlay: () => setPlay(!playing.current),
    setPlay,
    step: () => {
      setPlay(false);
      session.current?.step();
      lastUi.current = 0;
    },
    reset: () => {
      setPlay(false);
      setGeneration((g) => g + 1);
    },
    speedIdx,
    /** With the auto speed: its speed now and why; null at a fixed speed. */
    auto,
    setSpeed: (i: number) => {
      setSpeedIdx(i);
      const sp = spec.speeds[i]!;
      speed.current = sp.nsPerSec;
      clock.current = sp.auto && autoPolicy.current ? new AutoClock(autoPolicy.current) : null;
      lastUi.current = 0;
    },
  };
}
