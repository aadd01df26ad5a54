/**
 * A small, strict command-line parser: `--name value` options (repeatable where declared),
 * `--flag` switches and positionals. Unknown options are errors that say what is accepted.
 */
export interface ArgSpec {
  options?: string[];    // take a value
  repeated?: string[];   // take a value, may repeat
  flags?: string[];      // no value
}

export interface ParsedArgs {
  positionals: string[];
  options: Map<string, string>;
  repeated: Map<string, string[]>;
  flags: Set<string>;
}

export class UsageError extends Error {}

export function parseArgs(argv: string[], spec: ArgSpec): ParsedArgs {
  const out: ParsedArgs = { positionals: [], options: new Map(), repeated: new Map(), flags: new Set() };
  const known = [...(spec.options ?? []), ...(spec.repeated ?? []), ...(spec.flags ?? [])].map((n) => `--${n}`);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) {
      out.positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = (eq > 0 ? a.slice(2, eq) : a.slice(2));
    const inline = eq > 0 ? a.slice(eq + 1) : undefined;
    if (spec.flags?.includes(name)) {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
      out.flags.add(name);
      continue;
    }
    const takesValue = spec.options?.includes(name) || spec.repeated?.includes(name);
    if (!takesValue) {
      throw new UsageError(`unknown option '${a}'; accepted: ${known.join(', ') || '(none)'}`);
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (spec.repeated?.includes(name)) {
      out.repeated.set(name, [...(out.repeated.get(name) ?? []), value]);
    } else {
      if (out.options.has(name)) throw new UsageError(`--${name} given twice`);
      out.options.set(name, value);
    }
  }
  return out;
}
