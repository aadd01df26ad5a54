/// <reference types="vitest/config" />
// Vite builds the lab into web/dist; the WASM core comes from wasm-core/dist (built by the
// project scripts), lessons from lessons/, the wire contract it shares with the server from
// server/src/wire, static assets from the top-level public/.
import react from '@vitejs/plugin-react';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  plugins: [react()],
  publicDir: here('../public'),
  resolve: {
    alias: {
      '@wasm': here('../wasm-core/dist'),
      '@lessons': here('../lessons'),
      '@wire': here('../server/src/wire'),
    },
  },
  worker: { format: 'es' },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 1200 },
  server: { fs: { allow: [here('..')] } },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    testTimeout: 120_000,
    // Every core: the default leaves one idle (on 2 cores, one worker), and the lesson runs are CPU-bound.
    maxWorkers: availableParallelism(),
  },
});
