/**
 * A live view's control for one field of a session's schema (model/session/schema: the core's
 * sessions.json), or for one argument of a session operation: a number field with the schema's
 * range, a select of the schema's choices (shown by the core's display names, or the view's),
 * a checkbox for a bool, a text field for a string. The schema's help, range and unit are the
 * control's description (title and aria-describedby, as ParamForm shows them). The view gives
 * only the element id, the label, the layout and a step; a display name for a choice the schema
 * does not have, a schema choice left unnamed, or a field the schema lacks is an error thrown
 * at render (the labs' tests render every control), never a silently dropped option.
 */
import { SESSIONS, type OpArg, type SessionInfo, type SessionParam } from '../model/session/schema';
import type { ParamValue } from '../model/types';
import { Field, numberFrom } from './LiveControls';
import { rangeText } from './ParamForm';

/** What a control reads from a schema entry: a session parameter or an operation's argument. */
export type FieldSpec = (SessionParam | OpArg) & {
  /** A choice's display names from the core, one per choice (device profiles). */
  labels?: readonly string[];
};

/** Shown as value ÷ factor in `unit` (arrivals in thousands per second). */
export interface FieldScale {
  factor: number;
  unit: string;
}

export interface SpecFieldProps {
  spec: FieldSpec;
  /** The element id (the e2e specs and the label find the control by it). */
  id: string;
  label: string;
  value: ParamValue;
  onChange: (value: ParamValue) => void;
  step?: number;
  disabled?: boolean;
  /** Display names for a choice's values, every one named, in place of the core's labels. */
  names?: Readonly<Record<string, string>>;
  scale?: FieldScale;
  /** A number typed as text and passed on as typed (the core checks it and names the problem). */
  asText?: boolean;
  /** A number chosen from named values (a select), the current value added when it is none of them. */
  presets?: ReadonlyArray<readonly [number, string]>;
}

/** The options of a choice: [value, display name], in the schema's order. */
export function choiceOptions(spec: FieldSpec, names?: Readonly<Record<string, string>>): Array<[string, string]> {
  const choices = spec.choices ?? [];
  if (names) {
    const stray = Object.keys(names).filter((n) => !choices.includes(n));
    if (stray.length > 0) throw new Error(`display names for ${stray.map((s) => `'${s}'`).join(', ')}: not choices of '${spec.name}' (${choices.join(', ')})`);
    const unnamed = choices.filter((c) => names[c] === undefined);
    if (unnamed.length > 0) throw new Error(`'${spec.name}' has choices without a display name: ${unnamed.join(', ')}`);
    return choices.map((c) => [c, names[c]!]);
  }
  if (spec.labels) {
    if (spec.labels.length !== choices.length) throw new Error(`'${spec.name}' has ${spec.labels.length} labels for ${choices.length} choices`);
    return choices.map((c, i) => [c, spec.labels![i]!]);
  }
  return choices.map((c) => [c, c]);
}

/** Presets of a number field, each checked against the schema's range. */
export function checkedPresets(spec: FieldSpec, presets: ReadonlyArray<readonly [number, string]>): ReadonlyArray<readonly [number, string]> {
  for (const [v] of presets) {
    if (spec.min === undefined || spec.max === undefined || v < spec.min || v > spec.max) {
      throw new Error(`preset ${v} of '${spec.name}' is outside its range [${spec.min}, ${spec.max}]`);
    }
  }
  return presets;
}

/**
 * The number field's step: the view's, unless the range's minimum is no multiple of it (a
 * browser steps from the minimum: 60 would step to 60.001), then any value (arrows move by 1);
 * an int steps by 1, a real takes any value.
 */
export function stepOf(spec: FieldSpec, min: number | undefined, step: number | undefined): number | 'any' {
  if (step === undefined) return spec.type === 'int' ? 1 : 'any';
  const r = (min ?? 0) / step;
  return Math.abs(r - Math.round(r)) < 1e-9 ? step : 'any';
}

function isNumber(spec: FieldSpec): boolean {
  return spec.type === 'int' || spec.type === 'real';
}

/** The control's description: the schema's help, and a number's range in its unit. */
export function helpText(spec: FieldSpec, scale?: FieldScale): string {
  const help = spec.help.endsWith('.') ? spec.help : `${spec.help}.`;
  if (!isNumber(spec) || spec.min === undefined || spec.max === undefined) return help;
  const f = scale?.factor ?? 1;
  return `${help} Range ${rangeText({ min: spec.min / f, max: spec.max / f, unit: scale ? scale.unit : spec.unit })}.`;
}

export function SpecField({ spec, id, label, value, onChange, step, disabled, names, scale, asText, presets }: SpecFieldProps) {
  const helpId = `${id}-help`;
  const described = { title: helpText(spec, scale), 'aria-describedby': helpId, disabled };
  let input: React.ReactNode;
  if (spec.type === 'choice') {
    input = (
      <select id={id} value={String(value)} {...described} onChange={(e) => onChange(e.target.value)}>
        {choiceOptions(spec, names).map(([v, name]) => <option key={v} value={v}>{name}</option>)}
      </select>
    );
  } else if (spec.type === 'bool') {
    input = <input id={id} type="checkbox" checked={value === true} {...described} onChange={(e) => onChange(e.target.checked)} />;
  } else if (spec.type === 'string' || asText) {
    input = (
      <input id={id} type="text" inputMode={asText ? 'decimal' : undefined} value={String(value)} {...described}
        autoComplete="off" spellCheck={false} onChange={(e) => onChange(e.target.value)} />
    );
  } else if (presets) {
    const known = checkedPresets(spec, presets).some(([v]) => v === value);
    input = (
      <select id={id} value={known ? String(value) : 'custom'} {...described} onChange={(e) => onChange(Number(e.target.value))}>
        {presets.map(([v, name]) => <option key={v} value={v}>{name}</option>)}
        {!known && <option value="custom">{String(value)}{spec.unit ? ` ${spec.unit}` : ''}</option>}
      </select>
    );
  } else {
    const f = scale?.factor ?? 1;
    const shown = Number(value) / f;
    const min = spec.min === undefined ? undefined : spec.min / f;
    input = (
      <input id={id} type="number" min={min} max={spec.max === undefined ? undefined : spec.max / f}
        step={stepOf(spec, min, step)} value={shown} {...described}
        onChange={(e) => {
          const v = numberFrom(e.target.value, shown) * f;
          onChange(spec.type === 'int' ? Math.round(v) : v);
        }} />
    );
  }
  return (
    <Field id={id} label={label}>
      {input}
      <span id={helpId} className="sr-only">{described.title}</span>
    </Field>
  );
}

type Bound = Omit<SpecFieldProps, 'spec' | 'value' | 'onChange'>;

/** The control of session parameter `name`, bound to the view's configuration. */
export function SessionField<C>({ session, name, config, onConfig, ...rest }: Bound & {
  session: SessionInfo;
  name: keyof C & string;
  config: C;
  onConfig: (patch: Partial<C>) => void;
}) {
  const spec = session.params.find((p) => p.name === name);
  if (!spec) throw new Error(`the ${session.id} session has no parameter '${name}'`);
  return <SpecField spec={spec} value={config[name] as ParamValue} onChange={(v) => onConfig({ [name]: v } as Partial<C>)} {...rest} />;
}

/** The control of argument `arg` of operation `op` (its value held by the view). */
export function OpArgField({ session, op, arg, ...rest }: Omit<SpecFieldProps, 'spec'> & { session: SessionInfo; op: string; arg: string }) {
  const spec = session.ops.find((o) => o.name === op)?.args.find((a) => a.name === arg);
  if (!spec) throw new Error(`the ${session.id} session's operation '${op}' has no argument '${arg}'`);
  return <SpecField spec={spec} {...rest} />;
}

/** A session's schema by id; a build whose core lacks it fails here, by name. */
export function sessionSchema(id: string, sessions: readonly SessionInfo[] = SESSIONS): SessionInfo {
  const info = sessions.find((s) => s.id === id);
  if (!info) throw new Error(`this build of the core has no live session '${id}'; rebuild wasm-core`);
  return info;
}
