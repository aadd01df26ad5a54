/**
 * Controls generated from an experiment's parameter schema: a number field (with its range and
 * unit) for int/real, a select for choice, a checkbox for bool. Values are kept as text, as the
 * URL holds them; the core checks them (see ExperimentPanel).
 */
import type { ExperimentInfo, ParamSpec } from '../model/types';
import { fmt } from '../viz/format';

interface Props {
  info: ExperimentInfo;
  values: Record<string, string>;
  onChange: (name: string, text: string) => void;
  disabled?: boolean;
  /** The parameter the core's last error names, marked invalid. */
  invalid?: string | null;
}

/** "1 – 64 servers": a number's inclusive range in its unit (live views' controls say it too). */
export function rangeText(p: Pick<ParamSpec, 'min' | 'max' | 'unit'>): string {
  return `${fmt(p.min ?? 0, 6)} – ${fmt(p.max ?? 0, 6)}${p.unit ? ' ' + p.unit : ''}`;
}

export function ParamForm({ info, values, onChange, disabled, invalid }: Props) {
  return (
    <div className="param-grid">
      {info.params.map((p) => {
        const id = `param-${p.name}`;
        const text = values[p.name] ?? String(p.default);
        const helpId = `${id}-help`;
        let input: React.ReactNode;
        if (p.type === 'choice') {
          input = (
            <select id={id} value={text} disabled={disabled} aria-describedby={helpId} aria-invalid={invalid === p.name} onChange={(e) => onChange(p.name, e.target.value)}>
              {(p.choices ?? []).map((c) => <option key={c} value={c}>{c}</option>)}
            </select>
          );
        } else if (p.type === 'bool') {
          input = (
            <input id={id} type="checkbox" checked={text === 'true'} disabled={disabled} aria-describedby={helpId}
              onChange={(e) => onChange(p.name, e.target.checked ? 'true' : 'false')} />
          );
        } else {
          input = (
            <input id={id} type="text" inputMode="decimal" value={text} disabled={disabled} aria-describedby={helpId}
              aria-invalid={invalid === p.name}
              spellCheck={false} onChange={(e) => onChange(p.name, e.target.value)} />
          );
        }
        return (
          <div className="param" key={p.name}>
            <label htmlFor={id}>
              <code>{p.name}</code>
              {p.unit && <span className="unit"> ({p.unit})</span>}
            </label>
            {input}
            <small id={helpId} className="help">
              {p.help}
              {(p.type === 'int' || p.type === 'real') && <span className="range"> Range {rangeText(p)}.</span>}
            </small>
          </div>
        );
      })}
    </div>
  );
}
