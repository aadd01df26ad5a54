// Child processes: start, SIGKILL, restart with the same id and dir, add with a fresh id,
// output prefixed, and stopAll. The children are small `node -e` scripts, not back-ends.
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { dataDirOf, Supervisor } from './supervisor.js';
import { waitFor } from './testnet.fake.js';

// Prints its id and data dir, then lives until its IPC channel closes or it is signalled.
const CHILD = "console.log('up', process.argv[1], process.argv[2]); process.on('disconnect', () => process.exit(0)); setInterval(() => {}, 1000);";

describe('Supervisor', () => {
  it('starts, kills, restarts and adds children', async () => {
    const logs: string[] = [];
    const exits: string[] = [];
    const sup = new Supervisor({
      dataRoot: tmpdir(),
      command: (id, dir) => ({ cmd: process.execPath, args: ['-e', CHILD, String(id), dir] }),
      log: (l) => logs.push(l),
      usedIds: () => [5],
      onExit: (id, _code, signal) => exits.push(`${id} ${signal}`),
    });
    try {
      expect(sup.start(0).ok).toBe(true);
      expect(sup.start(1).ok).toBe(true);
      expect(sup.start(1)).toMatchObject({ ok: false, status: 409 });
      await waitFor(() => logs.filter((l) => l.includes('up')).length === 2, 'two children up');
      expect(logs).toContain(`[node 1] up 1 ${dataDirOf(tmpdir(), 1)}`);
      const pid0 = sup.list()[0]!.pid;
      expect(sup.kill(0)).toMatchObject({ ok: true });
      await waitFor(() => exits.includes('0 SIGKILL'), 'node 0 to die');
      expect(sup.list()[0]).toMatchObject({ id: 0, state: 'killed', pid: null, starts: 1 });
      expect(sup.kill(0)).toMatchObject({ ok: false, status: 409 });
      expect(sup.kill(9)).toMatchObject({ ok: false, status: 404 });
      expect(sup.restart(1)).toMatchObject({ ok: false, status: 409 });
      expect(sup.restart(0)).toMatchObject({ ok: true, body: { id: 0 } });
      expect(sup.list()[0]).toMatchObject({ state: 'running', starts: 2 });
      expect(sup.list()[0]!.pid).not.toBe(pid0);
      expect(sup.add()).toMatchObject({ ok: true, body: { id: 6 } });
      await waitFor(() => logs.filter((l) => l.includes('up')).length === 4, 'four starts');
    } finally {
      await sup.stopAll();
    }
    expect(sup.list().every((c) => c.pid === null)).toBe(true);
  });

  it('reports a child that exits on its own', async () => {
    const logs: string[] = [];
    const sup = new Supervisor({ dataRoot: tmpdir(), command: () => ({ cmd: process.execPath, args: ['-e', 'process.exit(3)'] }), log: (l) => logs.push(l) });
    sup.start(0);
    await waitFor(() => sup.list()[0]!.state === 'exited', 'the exit');
    expect(sup.list()[0]!.exitCode).toBe(3);
    expect(logs).toContain('[node 0] exited (code 3)');
  });
});
