/**
 * The lifecycle every live view shares: the configuration (replaced by a lesson scenario), a
 * session (model/session: running in the session worker) opened from it and disposed when a
 * structural field, the seed or a reset asks for a new one, the live fields (from the
 * session's schema) applied to the running session in place, play / pause / step / speed (with
 * an `auto` speed when the spec gives an AutoPolicy), a scenario's script sent one operation per
 * frame, stopping when the view is hidden, and the frame loop that hands each tick's snapshot
 * and column views to the view (and the snapshot to React at most five times a second).
 * `ready` says whether the session the configuration asks for has sent its first snapshot:
 * until then (the page opening, a reset, a change that starts a new session) there is nothing
 * to run an operation on, so the view's operation buttons wait (`opsBusy`) and its status line
 * says so (`opStatus`) rather than a click being dropped without a word.
 */
import { useEffect, useRef, useState } from 'react';
import { changedFields } from '../model/scenario';
import { openSession, type ApplyResult, type LiveSessionClient, type ViewRequest } from '../model/session/client';
import type { Columns } from '../model/session/protocol';
import { defaultsOf, runningOf, sessionById, structuralOf } from '../model/session/schema';
import type { CoreError } from '../model/types';
import { AutoClock, type AutoPolicy } from './autoSpeed';
import { useFrameLoop, type Speed } from './LiveControls';
import type { LiveRequest } from './labModule';
import { ScriptQueue, type ScriptStep } from './scriptQueue';

/** The status line while a session starts (operations wait for its first snapshot). */
export const STARTING_STATUS = 'Starting the session… the operation buttons wait until it is ready.';

export interface LiveSessionSpec<C, S, O extends { op: string }, R> {
  request: LiveRequest<C> | null;
  /** Where the view starts differently from the session's defaults (the core's schema); none: {}. */
  defaults?: Partial<C>;
  speeds: Speed[];
  defaultSpeed: number;
  active: boolean;
  /** The session the view drives (its id in the core's sessions.json). */
  session: string;
  /** Draws one tick's snapshot, with the column views fetched with it. */
  draw: (snap: S, wallMs: number, views: Record<string, Columns | CoreError>) => void;
  /** The column views to fetch with the next tick (none: undefined). */
  views?: (wallMs: number) => ViewRequest[] | undefined;
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
  /** A session with a script: how big operations split into one per frame. */
  expandScript?: (ops: O[]) => O[];
  /** Each script operation's outcome (after the status line is set). */
  onScript?: (op: O, result: ApplyResult<R> | CoreError, step: ScriptStep) => void;
}

export function useLiveSession<C, S, O extends { op: string } = { op: string }, R = unknown>(spec: LiveSessionSpec<C, S, O, R>) {
  const session = useRef<LiveSessionClient<S, O, R> | null>(null);
  const playing = useRef(false);
  const speed = useRef(spec.speeds[spec.defaultSpeed]!.nsPerSec);
  const autoPolicy = useRef<AutoPolicy<S> | null>(spec.auto ?? null);
  // The clock of the default speed, made once: a fixed speed chosen later sets it to null (it
  // used to be made again on the next render, so a fixed speed still ran at the auto speed).
  const clock = useRef<AutoClock<S> | null>(null);
  const clockMade = useRef(false);
  if (!clockMade.current) {
    clockMade.current = true;
    if (spec.speeds[spec.defaultSpeed]!.auto && autoPolicy.current) clock.current = new AutoClock(autoPolicy.current);
  }
  const script = useRef(new ScriptQueue<O>());
  const lastUi = useRef(0);
  const specRef = useRef(spec);
  specRef.current = spec;
  const viewsRef = useRef<((wallMs: number) => ViewRequest[] | undefined) | undefined>(undefined);
  viewsRef.current = spec.views;
  const info = sessionById(spec.session);
  // The starting configuration: the schema's defaults (an empty script for a session that takes one), the view's own over them.
  const [defaults] = useState<Required<C>>(() =>
    ({ ...(info ? defaultsOf(info) : {}), ...(info?.script ? { script: [] } : {}), ...spec.defaults }) as Required<C>);
  const [config, setConfig] = useState<Required<C>>(defaults);
  const [seed, setSeed] = useState(1);
  const [isPlaying, setPlaying] = useState(false);
  const [speedIdx, setSpeedIdx] = useState(spec.defaultSpeed);
  const [snap, setSnap] = useState<S | null>(null);
  const [error, setError] = useState<string | null>(info ? null : `this build of the core has no live session '${spec.session}'; rebuild wasm-core`);
  const [scriptStep, setScriptStep] = useState<ScriptStep>({ error: null, status: '' });
  const [auto, setAuto] = useState<{ nsPerSec: number; label: string } | null>(null);
  const [generation, setGeneration] = useState(0);
  /**
   * Which session has sent its first snapshot, by the key of what opened it: a reset, a new
   * seed or a structural change makes a new key, so `ready` is false from that very render on,
   * before the old session is even disposed.
   */
  const [readyKey, setReadyKey] = useState<string | null>(null);
  const readyKeyRef = useRef<string | null>(null);
  const openedKey = useRef<string | null>(null);
  /** The configuration the view last took, and whether the user has changed it since. */
  const base = useRef<Required<C>>(defaults);
  const edited = useRef(false);

  // A scenario from the lesson replaces the configuration and starts a new session.
  useEffect(() => {
    if (!spec.request) return;
    base.current = { ...defaults, ...spec.request.config };
    edited.current = false;
    setConfig(base.current);
    setSeed(spec.request.seed);
    setGeneration((g) => g + 1);
    if (specRef.current.playOnScenario) setPlay(true);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the defaults never change
  }, [spec.request]);

  useEffect(() => {
    if (!edited.current) return;
    edited.current = false;
    specRef.current.onEdit?.(changedFields(config, base.current) as Partial<C>);
  }, [config]);

  const values = config as Record<string, unknown>;
  const structuralKey = JSON.stringify(info ? structuralOf(info, values) : values);
  const runningKey = JSON.stringify(info ? runningOf(info, values) : {});
  const sessionKey = JSON.stringify([info?.id ?? null, structuralKey, seed, generation]);
  const ready = readyKey === sessionKey;

  // A new session whenever its structure changes, on a new seed, or on reset. A script is
  // left out of the configuration and sent one operation per frame.
  useEffect(() => {
    if (!info) return;
    let cancelled = false;
    let opened: LiveSessionClient<S, O, R> | null = null;
    const { script: ops, ...fields } = config as Record<string, unknown>;
    void openSession<S, O, R>(info.id, fields, String(seed)).then((s) => {
      if (!('tick' in s)) {
        if (!cancelled) setError(s.message);
        return;
      }
      if (cancelled) {
        s.dispose();
        return;
      }
      opened = s;
      setError(null);
      session.current = s;
      openedKey.current = sessionKey;
      clock.current?.reset();
      const sp = specRef.current;
      script.current.load(Array.isArray(ops) ? (sp.expandScript ?? ((x: O[]) => x))(ops as O[]) : []);
      setScriptStep({ error: null, status: '' });
      sp.onNew?.();
      setSnap(null);
      lastUi.current = 0;
    });
    return () => {
      cancelled = true;
      opened?.dispose();
      if (session.current === opened) {
        session.current = null;
        openedKey.current = null;
      }
      // Not ready until the next session's first snapshot (the same key can come back: A, B, A).
      readyKeyRef.current = null;
      setReadyKey(null);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the structural fields; the rest apply in place below
  }, [info, structuralKey, seed, generation]);

  // The other fields change the running session.
  useEffect(() => {
    const s = session.current;
    if (!s) return;
    void s.reconfigure(JSON.parse(runningKey) as Record<string, unknown>).then((r) => {
      if (session.current === s) setError(r.ok ? null : r.message);
    });
  }, [runningKey]);

  function setPlay(p: boolean) {
    playing.current = p;
    setPlaying(p);
  }
  // A hidden view stops.
  useEffect(() => {
    if (!spec.active) setPlay(false);
  }, [spec.active]);

  useFrameLoop(session, playing, speed, spec.active, (r, now) => {
    const s = session.current;
    if (s) {
      script.current.pump((op) => s.apply(op), (step, op, res) => {
        setScriptStep(step);
        specRef.current.onScript?.(op, res, step);
      });
    }
    specRef.current.draw(r.snap, now, r.views);
    // The loop hands over only the current session's ticks: this one's first makes it ready.
    if (readyKeyRef.current !== openedKey.current) {
      readyKeyRef.current = openedKey.current;
      setReadyKey(openedKey.current);
    }
    if (now - lastUi.current > 200 || lastUi.current === 0) {
      lastUi.current = now;
      setSnap(r.snap);
      const c = clock.current;
      setAuto((prev) => {
        const next = c ? { nsPerSec: c.nsPerSec(now), label: c.label() } : null;
        return prev && next && prev.nsPerSec === next.nsPerSec && prev.label === next.label ? prev : next;
      });
    }
  }, clock, viewsRef);

  return {
    /** The running session (null before it opens or after a bad configuration). */
    session,
    config,
    update: (patch: Partial<Required<C>>) => {
      edited.current = true;
      setConfig((c) => ({ ...c, ...patch }));
    },
    snap,
    error,
    /** Whether the current session has sent its first snapshot (operations can run on it). */
    ready,
    /** Whether the operation buttons wait: the session is starting, or a scenario's script is being sent. */
    opsBusy: !ready || scriptStep.status !== '',
    /** The status line while operations wait: the script's progress, or that the session is starting ('' otherwise, and after a failed start, whose error says why). */
    opStatus: scriptStep.status || (!ready && error === null ? STARTING_STATUS : ''),
    /** The scenario script's progress ("Setting up the scenario: step 3 of 8…"; '' when done). */
    scriptStatus: scriptStep.status,
    /** Whether a scenario's script is still being sent. */
    scriptBusy: () => script.current.busy,
    isPlaying,
    togglePlay: () => setPlay(!playing.current),
    setPlay,
    step: () => {
      setPlay(false);
      void session.current?.step();
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
