/**
 * The fawnlab CLI behind the npm scripts: `serve`, `repro`, `bench`, and the real
 * multi-node mode (cluster/): `cluster` runs a front-end and its back-ends, `node` one
 * back-end (spawned by `cluster`, or joining from another machine).
 */
import { bench } from './bench.js';
import { nodeMain } from './cluster/backend.js';
import { benchClusterMain, benchLoadMain } from './cluster/benchcluster.js';
import { clusterMain } from './cluster/frontend.js';
import { serve } from './main.js';
import { repro, type Io } from './repro.js';

const io: Io = {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  errIsTty: Boolean(process.stderr.isTTY),
};

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case 'serve':
      return serve(rest);
    case 'repro':
      return repro(rest, io);
    case 'bench':
      return bench(rest, io);
    case 'cluster':
      return clusterMain(rest);
    case 'node':
      return nodeMain(rest);
    case 'bench-cluster':
      return benchClusterMain(rest);
    case 'bench-load':
      return benchLoadMain(rest);
    default:
      io.err('usage: fawnlab <serve|repro|bench|cluster|node|bench-cluster> [args]\n');
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // Setup problems (a missing build); never dump the WASM module's source.
    io.err(`error: ${err instanceof Error ? err.message.slice(0, 500) : String(err).slice(0, 500)}\n`);
    process.exitCode = 1;
  },
);
