/**
 * Arithmetic expressions for exercise variants (docs/lessons.md): numbers, variables, + − × ÷,
 * ^ (power), parentheses and ln, log10, exp, sqrt, min, max, abs, floor, round. Parsed by recursive descent;
 * no `eval`. Errors name the problem and where it is.
 */

const FUNCS: Record<string, (...a: number[]) => number> = {
  ln: Math.log,
  log10: Math.log10,
  exp: Math.exp,
  sqrt: Math.sqrt,
  abs: Math.abs,
  min: Math.min,
  max: Math.max,
  floor: Math.floor,
  round: Math.round,
};

/** Evaluates `text` with `vars`; throws an Error naming what is wrong. */
export function evaluate(text: string, vars: Record<string, number>): number {
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`expression '${text}': ${what} at position ${i + 1}`);
  };
  const skip = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };
  const peek = () => {
    skip();
    return text[i] ?? '';
  };
  const expect = (c: string) => {
    if (peek() !== c) fail(`expected '${c}'`);
    i++;
  };
  const primary = (): number => {
    const c = peek();
    if (c === '(') {
      i++;
      const v = sum();
      expect(')');
      return v;
    }
    if (c === '-') {
      i++;
      return -power();
    }
    const num = /^(\d+\.?\d*|\.\d+)(e[-+]?\d+)?/i.exec(text.slice(i));
    if (num) {
      i += num[0].length;
      return Number(num[0]);
    }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
    if (!id) return fail('expected a number, a name or (');
    i += id[0].length;
    const name = id[0];
    if (peek() === '(') {
      const f = FUNCS[name];
      if (!f) fail(`unknown function '${name}'`);
      i++;
      const args = [sum()];
      while (peek() === ',') {
        i++;
        args.push(sum());
      }
      expect(')');
      return f!(...args);
    }
    const v = vars[name];
    if (v === undefined) fail(`unknown variable '${name}'`);
    return v!;
  };
  const power = (): number => {
    const base = primary();
    if (peek() === '^') {
      i++;
      return base ** power();
    }
    return base;
  };
  const product = (): number => {
    let v = power();
    for (;;) {
      const c = peek();
      if (c === '*') { i++; v *= power(); } else if (c === '/') { i++; v /= power(); } else return v;
    }
  };
  const sum = (): number => {
    let v = product();
    for (;;) {
      const c = peek();
      if (c === '+') { i++; v += product(); } else if (c === '-') { i++; v -= product(); } else return v;
    }
  };
  const v = sum();
  if (peek() !== '') fail(`unexpected '${peek()}'`);
  if (!Number.isFinite(v)) throw new Error(`expression '${text}' is not a finite number`);
  return v;
}
