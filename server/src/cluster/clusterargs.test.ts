// The cluster and node command lines: defaults, every range check, the token rules.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseClusterArgs, parseNodeArgs } from './clusterargs.js';

describe('fawnlab cluster arguments', () => {
  it('have defaults', () => {
    expect(parseClusterArgs([])).toEqual({ nodes: 4, replicas: 3, vids: 2, port: 8200, memcachedPort: 11311, peerPort: 8201,
      dataDir: resolve('fawnlab-data'), host: '127.0.0.1', fileBytes: 16 << 20, recoverMs: 10_000, fresh: false });
    const r = parseClusterArgs(['--recover-timeout', '3', '--fresh']);
    expect([r.recoverMs, r.fresh]).toEqual([3000, true]);
    const a = parseClusterArgs(['--nodes', '5', '--replicas=2', '--port', '0', '--memcached-port', '0', '--data', '/tmp/d', '--file-mb', '8']);
    expect([a.nodes, a.replicas, a.port, a.peerPort, a.dataDir, a.fileBytes]).toEqual([5, 2, 0, 0, '/tmp/d', 8 << 20]);
  });

  it('name what is wrong', () => {
    const bad: Array<[string[], RegExp]> = [
      [['--nodes', '0'], /--nodes must be an integer in \[1, 256\], got '0'/],
      [['--nodes', 'four'], /--nodes must be an integer/],
      [['--nodes', '2', '--replicas', '3'], /--replicas 3 needs at least 3 --nodes \(got 2\)/],
      [['--vids', '65'], /--vids must be an integer in \[1, 64\]/],
      [['--file-mb', '2048'], /--file-mb must be an integer in \[1, 1024\]/],
      [['--recover-timeout', '0'], /--recover-timeout must be an integer in \[1, 3600\]/],
      [['--fresh=yes'], /--fresh takes no value/],
      [['--port', '70000'], /--port must be an integer in \[0, 65535\]/],
      [['--host', '0.0.0.0'], /requires --token/],
      [['--host', '0.0.0.0', '--token', 'short'], /at least 8 characters/],
      [['--port', '9000', '--memcached-port', '9000'], /must differ/],
      [['--bogus', '1'], /unknown option '--bogus'/],
      [['extra'], /unexpected argument 'extra'/],
    ];
    for (const [argv, re] of bad) expect(() => parseClusterArgs(argv), argv.join(' ')).toThrow(re);
    expect(parseClusterArgs(['--host', '0.0.0.0'], { FAWNLAB_TOKEN: 'long-enough' }).token).toBe('long-enough');
  });
});

describe('fawnlab node arguments', () => {
  it('parse joins and the supervisor\'s form', () => {
    expect(parseNodeArgs(['--join', '127.0.0.1:8201', '--data', 'd'])).toEqual({
      frontend: { host: '127.0.0.1', port: 8201 }, id: null, dataDir: resolve('d'), listenHost: '127.0.0.1', listenPort: 0 });
    const sup = parseNodeArgs(['--frontend', '127.0.0.1:8201', '--id', '3', '--data', 'd'], { FAWNLAB_TOKEN: 'abcdefgh' });
    expect([sup.id, sup.token]).toEqual([3, 'abcdefgh']);
    const remote = parseNodeArgs(['--join', 'fe.lab:8201', '--data', 'd', '--token', 'abcdefgh']);
    expect([remote.listenHost, remote.listenPort]).toEqual(['0.0.0.0', 0]);
    expect(parseNodeArgs(['--join', 'fe.lab:1', '--data', 'd', '--token', 'abcdefgh', '--listen', '10.0.0.5:9000']))
      .toMatchObject({ listenHost: '10.0.0.5', listenPort: 9000 });
  });

  it('name what is wrong', () => {
    const bad: Array<[string[], RegExp]> = [
      [['--data', 'd'], /--join HOST:PORT/],
      [['--join', 'a:1', '--frontend', 'a:1', '--data', 'd'], /--join HOST:PORT/],
      [['--join', 'nope', '--data', 'd'], /--join: 'nope' is not host:port/],
      [['--join', 'a:1'], /--data DIR is required/],
      [['--join', 'a:1', '--data', 'd', '--id', '-1'], /--id must be an integer/],
      [['--join', 'fe.lab:1', '--data', 'd'], /requires --token/],
      [['--join', 'a:1', '--data', 'd', '--listen', 'a b'], /--listen must be/],
    ];
    for (const [argv, re] of bad) expect(() => parseNodeArgs(argv), argv.join(' ')).toThrow(re);
  });
});
