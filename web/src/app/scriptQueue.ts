/**
 * A lesson scenario's `script` for a live view with operations (FAWN-DS, FAWN-KV): applied
 * one operation per frame, so the page stays responsive and shows its progress while the
 * scenario sets up; the first refused operation drops the rest.
 */
import { isCoreError, type Core } from '../model/core';
import type { CoreError } from '../model/types';

export interface ScriptStep {
  /** Why the scenario stopped, or null. */
  error: string | null;
  /** "Setting up the scenario: step 3 of 8…" while operations remain, else ''. */
  status: string;
}

export class ScriptQueue<O extends { op: string }> {
  private ops: O[] = [];
  private total = 0;

  load(ops: O[]): void {
    this.ops = [...ops];
    this.total = this.ops.length;
  }

  get busy(): boolean {
    return this.ops.length > 0;
  }

  /** Applies the next operation to `session`; null when there is none. */
  step(session: { apply(op: O): unknown }): ScriptStep | null {
    const op = this.ops.shift();
    if (!op) return null;
    const done = this.total - this.ops.length;
    const err = session.apply(op);
    if (isCoreError(err)) {
      this.ops = [];
      return { error: `The scenario's operation ${done} (${op.op}) failed: ${err.message}`, status: '' };
    }
    return { error: null, status: this.ops.length > 0 ? `Setting up the scenario: step ${done} of ${this.total}…` : '' };
  }
}

/**
 * The `create` of a useLiveSession spec for a session that takes a script: opens the session
 * from the configuration without its `script`, keeps it in `session` and queues the script
 * (`expand` may split big operations into chunks).
 */
export function scriptedCreate<O extends { op: string }, C extends { script?: O[] }, L>(
  open: (core: Core, config: Omit<C, 'script'>, seed: string) => L | CoreError,
  session: { current: L | null },
  queue: ScriptQueue<O>,
  expand: (ops: O[]) => O[] = (ops) => ops,
): (core: Core, config: C, seed: string) => L | CoreError {
  return (core, config, seed) => {
    const { script, ...rest } = config;
    const s = open(core, rest, seed);
    if (!isCoreError(s)) {
      session.current = s;
      queue.load(expand(script ?? []));
    }
    return s;
  };
}
