import { defineConfig } from 'vitest/config';

export default defineConfig({
  // One worker on 2 cores (vitest's default): the real-cluster tests (killnine.test.ts) time
  // real processes, and with a second worker beside them the kill -9 run has shown a real
  // linearizability violation (an older put's value read back after a newer one's, around the
  // failover), which more CPU contention makes likelier. Until that bug is found and fixed, the
  // server suite runs as it always has; the web suite uses every core.
  test: { include: ['src/**/*.test.ts'], testTimeout: 120_000 },
});
