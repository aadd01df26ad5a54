/**
 * Checks live configurations, patches and scripts against a session's schema (schema.ts), and
 * reads them from a link's text, with messages that name the field and what it must be ("nodes
 * must be an integer in [1, 64]"). The core checks everything again; these give a lesson
 * author and a link early, clear messages. Pure functions.
 */
import type { ParamSpec, ParamValue } from '../types';
import { nounOf, sessionForConfig, sessionsOf, SESSIONS, type LiveConfigValues, type OpArg, type SessionInfo } from './schema';

/** The schema of one value: a parameter or an operation's argument. */
type ValueSpec = Pick<ParamSpec, 'min' | 'max' | 'choices'> & { type: OpArg['type'] };

/** What a value of `spec` must be: "an integer in [1, 64]", "one of hashed, even", … */
export function describeSpec(spec: ValueSpec): string {
  switch (spec.type) {
    case 'int': return `an integer in [${spec.min}, ${spec.max}]`;
    case 'real': return `a number in [${spec.min}, ${spec.max}]`;
    case 'choice': return `one of ${(spec.choices ?? []).join(', ')}`;
    case 'bool': return 'true or false';
    case 'string': return 'a string';
  }
}

/** Whether `v` is a value of `spec`. */
export function fitsSpec(spec: ValueSpec, v: unknown): boolean {
  switch (spec.type) {
    case 'int':
    case 'real':
      return typeof v === 'number' && Number.isFinite(v) && (spec.type === 'real' || Number.isInteger(v))
        && v >= (spec.min ?? -Infinity) && v <= (spec.max ?? Infinity);
    case 'choice': return typeof v === 'string' && (spec.choices ?? []).includes(v);
    case 'bool': return typeof v === 'boolean';
    case 'string': return typeof v === 'string';
  }
}

/** A value of `spec` from its text (a form's or a link's), or undefined when the text is not one. */
export function valueFromText(spec: ValueSpec, text: string): ParamValue | undefined {
  let v: ParamValue;
  if (spec.type === 'int' || spec.type === 'real') v = text.trim() === '' ? NaN : Number(text);
  else if (spec.type === 'bool') {
    if (text !== 'true' && text !== 'false') return undefined;
    v = text === 'true';
  } else v = text;
  return fitsSpec(spec, v) ? v : undefined;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Checks a live configuration's fields (and its script, if the session takes one); one message per problem. */
export function checkConfig(info: SessionInfo, config: LiveConfigValues, skip: string[] = []): string[] {
  const errors: string[] = [];
  for (const [k, v] of Object.entries(config)) {
    if (skip.includes(k)) continue;
    if (k === 'script' && info.script) {
      errors.push(...checkScript(info, v));
      continue;
    }
    const spec = info.params.find((p) => p.name === k);
    if (!spec) errors.push(`unknown field '${k}' for ${nounOf(info)} (known: ${info.params.map((p) => p.name).join(', ')})`);
    else if (!fitsSpec(spec, v)) errors.push(`${k} must be ${describeSpec(spec)}`);
  }
  return errors;
}

/** Checks a change to a running session: known, live fields with good values. */
export function checkPatch(info: SessionInfo, patch: LiveConfigValues): string[] {
  const errors: string[] = [];
  for (const [k, v] of Object.entries(patch)) {
    const spec = info.params.find((p) => p.name === k);
    if (!spec) errors.push(`unknown field '${k}' for ${nounOf(info)} (known: ${info.params.map((p) => p.name).join(', ')})`);
    else if (!spec.live) errors.push(`${k} cannot change while ${nounOf(info)} runs (it needs a new session)`);
    else if (!fitsSpec(spec, v)) errors.push(`${k} must be ${describeSpec(spec)}`);
  }
  return errors;
}

/** Checks one operation against the session's operations; one message per problem, '' prefix free. */
export function checkOp(info: SessionInfo, op: unknown, what = 'operation'): string[] {
  const names = info.ops.map((o) => o.name);
  if (!isObject(op) || typeof op.op !== 'string' || !names.includes(op.op)) return [`${what} needs "op": one of ${names.join(', ')}`];
  const spec = info.ops.find((o) => o.name === op.op)!;
  const errors: string[] = [];
  for (const a of spec.args) {
    const v = op[a.name];
    if (v === undefined) {
      if (a.required) errors.push(`${what} (${op.op}) needs "${a.name}": ${a.type === 'string' ? 'a non-empty string' : describeSpec(a)}`);
    } else if (!fitsSpec(a, v) || (a.required && a.type === 'string' && v === '')) {
      errors.push(`${what} (${op.op}) needs "${a.name}": ${a.type === 'string' && a.required ? 'a non-empty string' : describeSpec(a)}`);
    }
  }
  for (const k of Object.keys(op)) {
    if (k !== 'op' && !spec.args.some((a) => a.name === k)) {
      errors.push(`${what} (${op.op}) has an unknown argument '${k}' (known: ${spec.args.map((a) => a.name).join(', ') || 'none'})`);
    }
  }
  return errors;
}

/** Checks a script: an array of operations. */
export function checkScript(info: SessionInfo, script: unknown): string[] {
  if (!info.script) return ['this session takes no script'];
  if (!Array.isArray(script)) return ['script must be an array of operations'];
  return script.flatMap((op, i) => checkOp(info, op, `script operation ${i}`));
}

/**
 * Checks a lesson's live scenario for `lab`: the session it drives (a lab with several picks it
 * by `view`), then its fields and script. Messages are prefixed with `where`.
 */
export function checkLiveScenario(lab: string, live: LiveConfigValues, where: string, sessions: readonly SessionInfo[] = SESSIONS): string[] {
  const list = sessionsOf(lab, sessions);
  if (list.length === 0) return [`${where}: the ${lab} lab has no live view`];
  if (list.length > 1) {
    const views = list.map((s) => s.view);
    if (typeof live.view !== 'string' || !views.includes(live.view)) {
      return [`${where}: a ${lab} live scenario needs "view": ${views.map((v) => `"${v}"`).join(' or ')}`];
    }
  } else if ('view' in live) {
    const several = [...new Set(sessions.map((s) => s.lab))].filter((l) => sessionsOf(l, sessions).length > 1);
    const labs = several.length > 1 ? `${several.slice(0, -1).join(', ')} and ${several.at(-1)!} labs'` : `${several[0] ?? ''} lab's`;
    return [`${where}: "view" is a field of the ${labs} live scenarios`];
  }
  const info = sessionForConfig(lab, live, sessions)!;
  return checkConfig(info, live, ['view']).map((e) => `${where}: ${e}`);
}

/**
 * Typed fields from their link text, checked against the session's parameters. Unknown names
 * and bad values are left out and each named in `errors` (`live.<name>` as the link has it).
 */
export function configFromText(info: Pick<SessionInfo, 'params'>, text: Record<string, string>, what: string): { config: Record<string, ParamValue>; errors: string[] } {
  const config: Record<string, ParamValue> = {};
  const errors: string[] = [];
  for (const [k, v] of Object.entries(text)) {
    const spec = info.params.find((p) => p.name === k);
    if (!spec) {
      errors.push(`live.${k} in the link is not a field of ${what} (known: ${info.params.map((p) => p.name).join(', ')})`);
      continue;
    }
    const value = valueFromText(spec, v);
    if (value === undefined) errors.push(`live.${k}=${v} in the link must be ${describeSpec(spec)}`);
    else config[k] = value;
  }
  return { config, errors };
}

/** Fields as link text: those of the session's parameters whose value is a number, string or boolean. */
export function configToText(info: Pick<SessionInfo, 'params'>, config: Record<string, unknown>): Record<string, string> {
  const text: Record<string, string> = {};
  for (const [k, v] of Object.entries(config)) {
    if (info.params.some((p) => p.name === k) && (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean')) text[k] = String(v);
  }
  return text;
}
