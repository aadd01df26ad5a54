/**
 * The contract of a lab (web/src/labs/<id>/index.ts exports one `LabModule`; labs/index.ts
 * lists them): what the home page says about it, its lesson folder's files, and its live view.
 * The generic LabPage hosts any module: it hands the live view a `LiveRequest` (a lesson
 * scenario's or a link's live configuration, already checked against the lab's schema by the
 * lesson checker) and records the fields the user changes, reported through `onEdit`.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** A live view's configuration as the page carries it: a plain record (the lab's schema says which fields). */
export type LiveConfigRecord = Record<string, unknown>;

/** A lesson's live scenario, handed to a live view (C: the view's configuration). */
export interface LiveRequest<C = LiveConfigRecord> {
  config: C;
  seed: number;
  /** Changes whenever a scenario is loaded, so loading the same one twice restarts it. */
  nonce: number;
}

/** What the page passes a lab's live view. */
export interface LiveViewProps {
  request: LiveRequest | null;
  /** The fields the user changed, relative to the request's configuration (the page writes them to the URL). */
  onEdit(changed: LiveConfigRecord): void;
}

/** A lab's live view: its own chunk, fetched when the lab's page opens (or earlier through preload). */
export interface LiveView {
  Component: LazyExoticComponent<ComponentType<LiveViewProps>>;
  /** Starts fetching the view's code; the same promise for every caller. */
  preload(): Promise<unknown>;
  /** What a scenario card calls the view a live configuration opens ("live queue", "live disk view"). */
  name(config: LiveConfigRecord): string;
}

/** The files of a lab's lesson folder (lessons/<id>/); null or undefined where a file is not written yet. */
export interface LessonFiles {
  markdown: string | null;
  scenarios: unknown;
  exercises: unknown;
}

export interface LabModule {
  /** The lab's URL segment (/labs/<id>), lesson folder and experiments' `lab` field. */
  id: string;
  title: string;
  tagline: string;
  /** What the student will see and do, for the home page. */
  blurb: string;
  lessonFiles: LessonFiles;
  /** The live view beside the lesson, or none. */
  live: LiveView | null;
}

/**
 * A lab's live view, loaded on demand: `load` imports the view (a dynamic import, so it is its
 * own chunk); `name` is what scenario cards call it (or a function of the configuration, for a
 * lab whose configuration picks one of several views). The view takes its lab's configuration type C; the page's request carries a
 * record the lesson checker and the link parser validated against that lab's schema, which is
 * what makes the one conversion below sound.
 */
export function liveView<C>(
  load: () => Promise<ComponentType<{ request: LiveRequest<C> | null; onEdit?: (changed: Partial<C>) => void }>>,
  name: string | ((config: LiveConfigRecord) => string),
): LiveView {
  let loading: Promise<ComponentType<LiveViewProps>> | null = null;
  const preload = () => (loading ??= load().then((c) => c as unknown as ComponentType<LiveViewProps>));
  return { Component: lazy(() => preload().then((c) => ({ default: c }))), preload, name: typeof name === 'string' ? () => name : name };
}
