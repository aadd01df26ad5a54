/** The Stores lab: CONA, SILT, an LSM, FAWN-DS and a B+tree side by side on one device under one YCSB stream (LiveStores), beside lessons/stores/. */
import { liveView, type LabModule } from '../../app/labModule';
import { lessonFiles } from '../../app/lessonFiles';
import type { StoresLiveConfig } from './storesTypes';

export const stores: LabModule = {
  id: 'stores',
  title: 'Stores',
  tagline: 'CONA, SILT, an LSM, FAWN-DS and a B+tree side by side on one flash device, with energy',
  blurb:
    'Run one YCSB stream against several key-value stores on the same emulated SSD and watch each one’s structure grow ' +
    'side by side — CONA’s levels, SILT’s log, hash and sorted stores, the LSM’s levels against their targets, FAWN-DS’s log, ' +
    'the B+tree’s pages — while one table compares their throughput, latency, DRAM per key, reads per lookup, write ' +
    'amplification and joules per operation; then rerun the CONA thesis’s head-to-head and the memory and energy comparisons.',
  lessonFiles: lessonFiles('stores'),
  live: liveView<StoresLiveConfig>(() => import('./LiveStores').then((m) => m.LiveStores), 'live stores'),
};
