/** The FAWN-KV lab: a live FAWN-KV cluster on its ring (LiveFawnkv) beside lessons/fawnkv/. */
import { liveView, type LabModule } from '../../app/labModule';
import { lessonFiles } from '../../app/lessonFiles';
import type { FawnkvLiveConfig } from './fawnkvTypes';

export const fawnkv: LabModule = {
  id: 'fawnkv',
  title: 'FAWN-KV',
  tagline: 'a cluster of wimpy nodes: consistent hashing, chain replication, joins and failures',
  blurb:
    'Spread keys over a ring of virtual IDs, follow a put down its replication chain and a get to the tail, add, remove and ' +
    'fail nodes and watch ranges pre-copy and chains re-form, skew the load and cache at the front-end, and check every ' +
    'answer for linearizability — with the cluster’s queries per joule beside it.',
  lessonFiles: lessonFiles('fawnkv'),
  live: liveView<FawnkvLiveConfig>(() => import('./LiveFawnkv').then((m) => m.LiveFawnkv), 'live FAWN-KV cluster'),
};
