/** The CONA lab: the cache-oblivious no-lookahead array on emulated flash, under YCSB (LiveCona), beside lessons/cona/. */
import { liveView, type LabModule } from '../../app/labModule';
import { lessonFiles } from '../../app/lessonFiles';
import type { ConaLiveConfig } from './conaTypes';

export const cona: LabModule = {
  id: 'cona',
  title: 'CONA',
  tagline: 'the cache-oblivious no-lookahead array: sorted buffers, background merges and tries on flash',
  blurb:
    'Watch two sorted buffers fill and induce into level 1, pairs of full cells merge in the background into the next ' +
    'level’s shadow and flip visible, and follow a lookup down the levels past each cell’s entropy-coded trie and 16-bit ' +
    'fragment to the one flash read it costs — then rerun Chapter 3’s trie, buffer and YCSB results on an emulated SSD.',
  lessonFiles: lessonFiles('cona'),
  live: liveView<ConaLiveConfig>(() => import('./LiveCona').then((m) => m.LiveCona), 'live CONA store'),
};
