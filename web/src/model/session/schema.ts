/**
 * The live sessions' schemas as the core exports them (describeSessions(), written by the
 * build to wasm-core/dist/sessions.json): each session's id, lab and view, its parameters (the
 * experiments' ParamSpec plus `live`: whether a running session takes a change), whether its
 * config carries a script, its operations and its column views. Pure data and look-ups; the
 * checks are in validate.ts, the running sessions in client.ts.
 */
import rawSessions from '@wasm/sessions.json';
import type { ParamSpec, ParamValue } from '../types';

/** A session parameter: its schema, and whether it can change while the session runs. */
export interface SessionParam extends Omit<ParamSpec, 'type'> {
  type: ParamSpec['type'];
  live: boolean;
}

/** An operation's argument ("string" for keys and values); optional unless `required`. */
export interface OpArg extends Omit<ParamSpec, 'type'> {
  type: ParamSpec['type'] | 'string';
  required: boolean;
}

export interface OpInfo {
  name: string;
  help: string;
  args: OpArg[];
}

export interface ViewInfo {
  name: string;
  help: string;
  args: ParamSpec[];
}

export interface SessionInfo {
  /** "queues", "devices.flash", "fawnds", … */
  id: string;
  lab: string;
  /** The view a lab with several sessions picks it by ("" when the lab has one). */
  view: string;
  title: string;
  summary: string;
  /** How messages name it ("the flash device"); the title when the core gives none. */
  noun?: string;
  params: SessionParam[];
  script: boolean;
  ops: OpInfo[];
  views: ViewInfo[];
}

/** Every live session the core offers. */
export const SESSIONS: readonly SessionInfo[] = rawSessions as unknown as SessionInfo[];

/** A live configuration as a lesson or a link holds it: parameter values, a view, a script. */
export type LiveConfigValues = Record<string, unknown>;

/** The sessions of a lab (empty: it has no live view). */
export function sessionsOf(lab: string, sessions: readonly SessionInfo[] = SESSIONS): SessionInfo[] {
  return sessions.filter((s) => s.lab === lab);
}

export function sessionById(id: string, sessions: readonly SessionInfo[] = SESSIONS): SessionInfo | undefined {
  return sessions.find((s) => s.id === id);
}

/** The session of `lab` that `view` names (the lab's first when it has one, or no view is named). */
export function sessionOfView(lab: string, view: unknown, sessions: readonly SessionInfo[] = SESSIONS): SessionInfo | undefined {
  const list = sessionsOf(lab, sessions);
  if (list.length <= 1 || view === undefined) return list[0];
  return list.find((s) => s.view === view);
}

/** The session a live configuration drives (a lab with several picks by its `view` field). */
export function sessionForConfig(lab: string, config: LiveConfigValues | undefined, sessions: readonly SessionInfo[] = SESSIONS): SessionInfo | undefined {
  return sessionOfView(lab, config?.view, sessions);
}

/** The views of a lab with several sessions ([] when it has one). */
export function viewsOf(lab: string, sessions: readonly SessionInfo[] = SESSIONS): string[] {
  const list = sessionsOf(lab, sessions);
  return list.length > 1 ? list.map((s) => s.view) : [];
}

/** How messages name a session: its noun, else "the" and its title. */
export function nounOf(info: SessionInfo): string {
  if (info.noun) return info.noun;
  const t = info.title;
  // "Flash device" -> "the flash device"; "FAWN-DS node" keeps its capitals.
  return `the ${/^[A-Z][a-z]/.test(t) ? t.charAt(0).toLowerCase() + t.slice(1) : t}`;
}

/** Every parameter at its default. */
export function defaultsOf(info: SessionInfo): Record<string, ParamValue> {
  return Object.fromEntries(info.params.map((p) => [p.name, p.default]));
}

/** The fields of `config` that need a new session when they change (with the script, if any). */
export function structuralOf(info: SessionInfo, config: LiveConfigValues): LiveConfigValues {
  const out: LiveConfigValues = {};
  for (const p of info.params) if (!p.live) out[p.name] = config[p.name];
  if (info.script) out.script = config.script;
  return out;
}

/** The fields of `config` a running session takes through reconfigure. */
export function runningOf(info: SessionInfo, config: LiveConfigValues): LiveConfigValues {
  const out: LiveConfigValues = {};
  for (const p of info.params) if (p.live) out[p.name] = config[p.name];
  return out;
}

/** A parameter by name. */
export function paramOf(info: SessionInfo, name: string): SessionParam | undefined {
  return info.params.find((p) => p.name === name);
}
