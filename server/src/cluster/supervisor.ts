/**
 * The front-end's back-end child processes. `start(id)` spawns the command for that id and
 * its data dir (DIR/node-<id>); kill = SIGKILL (a crash, as `kill -9` would be); restart =
 * spawn again with the same id and data dir (the back-end recovers its stores from disk);
 * add = a new id above every id in use. A child's output goes to the log, each line prefixed
 * "[node <id>]". Children hold an IPC channel to this process and exit when it closes, so
 * none outlives the front-end. Nothing here touches ring membership (frontend.ts does).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Outcome } from './api.js';

export interface Launch {
  cmd: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
}

export interface SupervisorOptions {
  dataRoot: string;
  command: (id: number, dataDir: string) => Launch;
  log: (line: string) => void;
  /** Ids taken elsewhere (back-ends that joined from other machines), so add() skips them. */
  usedIds?: () => Iterable<number>;
  onExit?: (id: number, code: number | null, signal: NodeJS.Signals | null) => void;
}

export type ChildState = 'running' | 'killed' | 'exited';

export interface ChildInfo {
  id: number;
  pid: number | null;
  state: ChildState;
  exitCode: number | null;
  starts: number;
  dataDir: string;
}

interface Child {
  info: ChildInfo;
  proc: ChildProcess | null;
}

export function dataDirOf(dataRoot: string, id: number): string {
  return join(dataRoot, `node-${id}`);
}

function pipeLines(stream: NodeJS.ReadableStream | null, prefix: string, log: (l: string) => void): void {
  let partial = '';
  stream?.on('data', (c: Buffer) => {
    const lines = (partial + c.toString('utf8')).split('\n');
    partial = lines.pop()!.slice(-4096);
    for (const l of lines) if (l) log(`${prefix} ${l}`);
  });
  stream?.on('end', () => partial && log(`${prefix} ${partial}`));
}

export class Supervisor {
  private readonly children = new Map<number, Child>();

  constructor(private readonly o: SupervisorOptions) {}

  list(): ChildInfo[] {
    return [...this.children.values()].map((c) => ({ ...c.info })).sort((a, b) => a.id - b.id);
  }

  has(id: number): boolean {
    return this.children.has(id);
  }

  start(id: number): Outcome {
    const existing = this.children.get(id);
    if (existing?.info.state === 'running') return { ok: false, status: 409, error: `node ${id} is already running (pid ${existing.info.pid})` };
    const dataDir = dataDirOf(this.o.dataRoot, id);
    const launch = this.o.command(id, dataDir);
    const proc = spawn(launch.cmd, launch.args, { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env: launch.env ?? process.env });
    const child: Child = existing ?? { info: { id, pid: null, state: 'running', exitCode: null, starts: 0, dataDir }, proc: null };
    child.proc = proc;
    child.info.pid = proc.pid ?? null;
    child.info.state = 'running';
    child.info.exitCode = null;
    child.info.starts++;
    this.children.set(id, child);
    pipeLines(proc.stdout, `[node ${id}]`, this.o.log);
    pipeLines(proc.stderr, `[node ${id}]`, this.o.log);
    proc.on('error', (e) => this.o.log(`[node ${id}] could not start: ${e.message}`));
    proc.on('exit', (code, signal) => {
      if (child.proc !== proc) return;
      child.proc = null;
      child.info.pid = null;
      child.info.exitCode = code;
      if (child.info.state === 'running') child.info.state = signal === 'SIGKILL' ? 'killed' : 'exited';
      if (child.info.state === 'exited') this.o.log(`[node ${id}] exited (${signal ?? `code ${code}`})`);
      this.o.onExit?.(id, code, signal);
    });
    return { ok: true, body: { id, pid: proc.pid ?? null, dataDir } };
  }

  /** Starts a back-end with a new id (one above every id in use here or elsewhere). */
  add(): Outcome {
    const used = [...this.children.keys(), ...(this.o.usedIds?.() ?? [])];
    return this.start(used.length ? Math.max(...used) + 1 : 0);
  }

  kill(id: number): Outcome {
    const c = this.children.get(id);
    if (!c) return { ok: false, status: 404, error: `node ${id} is not a child of this front-end` };
    if (!c.proc || c.info.state !== 'running') return { ok: false, status: 409, error: `node ${id} is not running (${c.info.state})` };
    c.info.state = 'killed';
    c.proc.kill('SIGKILL');
    return { ok: true, body: { id, signal: 'SIGKILL' } };
  }

  restart(id: number): Outcome {
    const c = this.children.get(id);
    if (!c) return { ok: false, status: 404, error: `node ${id} is not a child of this front-end` };
    if (c.info.state === 'running') return { ok: false, status: 409, error: `node ${id} is running; kill it first` };
    return this.start(id);
  }

  /** Asks every child to stop (SIGTERM), then SIGKILLs what is left after `graceMs`. */
  async stopAll(graceMs = 2000): Promise<void> {
    const live = [...this.children.values()].filter((c) => c.proc);
    await Promise.all(live.map((c) => new Promise<void>((done) => {
      const proc = c.proc!;
      c.info.state = 'exited';
      const t = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      proc.once('exit', () => {
        clearTimeout(t);
        done();
      });
      proc.kill('SIGTERM');
    })));
  }
}
