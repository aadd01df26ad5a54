/**
 * `npm start` / `fawnlab serve [--port N] [--host H] [--token T]`: serves the built lab and
 * prints its URL. Port 8080 on 127.0.0.1 by default.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, UsageError } from './args.js';
import { ROOT } from './core.js';
import { createLabServer, isLoopback } from './http.js';

export const DEFAULT_PORT = 8080;
export const DEFAULT_HOST = '127.0.0.1';

export function packageVersion(): string {
  return (JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

export async function serve(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs(argv, { options: ['port', 'host', 'token', 'root'] });
  } catch (e) {
    process.stderr.write(`error: ${(e as UsageError).message}\nusage: fawnlab serve [--port N] [--host H] [--token T]\n`);
    return 2;
  }
  const port = Number(args.options.get('port') ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`error: --port must be an integer in [0, 65535], got '${args.options.get('port')}'\n`);
    return 2;
  }
  const host = args.options.get('host') ?? DEFAULT_HOST;
  const token = args.options.get('token');
  if (!isLoopback(host) && !token) {
    process.stderr.write(`error: listening on ${host} (beyond this machine) requires --token <secret>\n`);
    return 2;
  }
  const root = resolve(args.options.get('root') ?? resolve(ROOT, 'web/dist'));
  if (!existsSync(resolve(root, 'index.html'))) {
    process.stderr.write(`error: ${root}/index.html is missing; build the lab with 'npm run build'\n`);
    return 1;
  }
  const server = createLabServer({ root, version: packageVersion(), ...(token ? { token } : {}) });
  return await new Promise<number>((done) => {
    server.on('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'EADDRINUSE' ? `port ${port} is already in use; try --port ${port + 1}` : err.message;
      process.stderr.write(`error: cannot listen on ${host}:${port}: ${why}\n`);
      done(1);
    });
    server.listen(port, host, () => {
      const addr = server.address();
      const actual = typeof addr === 'object' && addr ? addr.port : port;
      const shownHost = host.includes(':') ? `[${host}]` : host;
      process.stdout.write(`fawnlab: the lab is at http://${shownHost}:${actual}/  (Ctrl-C to stop)\n`);
      const stop = () => server.close(() => done(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  serve(process.argv.slice(2)).then((code) => process.exit(code));
}
