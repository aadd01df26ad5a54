/**
 * `fawnlab repro <experiment-id> [--param k=v]... [--seed N] [--format json|csv]` and
 * `fawnlab repro --list [--format json]`: runs an experiment headless on the WASM core.
 *
 * stdout carries only the result (JSON by default, byte-identical to the browser's and the
 * native build's for the same parameters and seed); progress and errors go to stderr. Exit
 * status: 0 on success, 2 on bad input (unknown experiment, bad parameter or seed), 1 otherwise.
 */
import { parseArgs, UsageError } from './args.js';
import { Core, type ExperimentInfo, type ParamSpec } from './core.js';

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  /** Whether err is a terminal (then progress is drawn in place). */
  errIsTty: boolean;
}

const USAGE =
  'usage: npm run repro -- <experiment-id> [--param name=value]... [--seed N] [--format json|csv]\n' +
  '       npm run repro -- --list [--format json]';

function describeParam(p: ParamSpec): string {
  const range =
    p.type === 'choice' ? `one of ${(p.choices ?? []).join(' | ')}`
    : p.type === 'bool' ? 'true | false'
    : `${p.type} in [${p.min}, ${p.max}]${p.unit ? ' ' + p.unit : ''}`;
  return `    --param ${p.name}=${String(p.default)}`.padEnd(44) + ` ${range}. ${p.help}`;
}

export function formatList(experiments: ExperimentInfo[]): string {
  const lines: string[] = [];
  for (const e of experiments) {
    lines.push(`${e.id}  ${e.title}`, `    ${e.reference}`);
    for (const p of e.params) lines.push(describeParam(p));
    lines.push('');
  }
  return lines.join('\n');
}

export async function repro(argv: string[], io: Io, core?: Core): Promise<number> {
  let args;
  try {
    args = parseArgs(argv, { options: ['seed', 'format'], repeated: ['param'], flags: ['list', 'help'] });
  } catch (e) {
    io.err(`error: ${(e as UsageError).message}\n${USAGE}\n`);
    return 2;
  }
  if (args.flags.has('help')) {
    io.err(USAGE + '\n');
    return 0;
  }
  const format = args.options.get('format') ?? 'json';
  if (format !== 'json' && format !== 'csv') {
    io.err(`error: --format must be json or csv, got '${format}'\n`);
    return 2;
  }
  const c = core ?? (await Core.load());
  if (args.flags.has('list')) {
    // A list is for reading: text unless JSON is asked for by name.
    io.out(args.options.get('format') === 'json' ? c.listJson() : formatList(c.experiments()));
    return 0;
  }
  if (args.positionals.length !== 1) {
    io.err(`error: name exactly one experiment (npm run repro -- --list shows them)\n${USAGE}\n`);
    return 2;
  }
  const id = args.positionals[0]!;
  const pairs: Array<[string, string]> = [];
  for (const p of args.repeated.get('param') ?? []) {
    const eq = p.indexOf('=');
    if (eq <= 0) {
      io.err(`error: --param expects name=value, got '${p}'\n`);
      return 2;
    }
    pairs.push([p.slice(0, eq), p.slice(eq + 1)]);
  }
  const resolved = c.resolveParamStrings(id, pairs);
  if (!resolved.ok) {
    io.err(`error: ${resolved.message}\n`);
    return 2;
  }
  const seed = args.options.get('seed') ?? '1';
  let lastShown = -1;
  const result = c.run(id, resolved.json, seed, (f) => {
    const pct = Math.floor(f * 100);
    if (pct === lastShown) return;
    lastShown = pct;
    if (io.errIsTty) io.err(`\r${id}: ${pct}%`);
  });
  if (io.errIsTty && lastShown >= 0) io.err('\n');
  if (!result.ok) {
    io.err(`error: ${result.message}\n`);
    return result.code === 'invalid_argument' || result.code === 'not_found' ? 2 : 1;
  }
  io.out(format === 'csv' ? result.csv : result.json);
  return 0;
}
