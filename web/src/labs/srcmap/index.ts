/** The SRCMap lab: a day of eight volumes on eight disks under SRCMap or a baseline (LiveSrcmap), beside lessons/srcmap/. */
import { liveView, type LabModule } from '../../app/labModule';
import { lessonFiles } from '../../app/lessonFiles';
import type { SrcmapLiveConfig } from './srcmapTypes';

export const srcmap: LabModule = {
  id: 'srcmap',
  title: 'SRCMap',
  tagline: 'energy-proportional storage: sample the working sets, replicate them, consolidate onto fewer disks',
  blurb:
    'Run a virtual day of eight volumes on eight disks and watch SRCMap replicate each volume’s working set, choose the disks that ' +
    'stay spinning each interval, spin the rest down and pay in spin-ups, sync I/O and read misses, while the power steps with ' +
    'the load between the all-on and standby lines and the ideal proportional one; then rerun the thesis’s Chapter 3 results ' +
    'against caching and replication, or replay your own block trace.',
  lessonFiles: lessonFiles('srcmap'),
  live: liveView<SrcmapLiveConfig>(() => import('./LiveSrcmap').then((m) => m.LiveSrcmap), 'live SRCMap day'),
};
