import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Every core: vitest's default leaves one idle (on 2 cores, one worker).
  test: { include: ['src/**/*.test.ts'], testTimeout: 120_000, maxWorkers: availableParallelism() },
});
