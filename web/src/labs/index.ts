/**
 * The labs, in the order the home page lists them: one module per folder (web/src/labs/<id>/,
 * contract in app/labModule.ts). A new lab adds its line here.
 */
import type { LabModule } from '../app/labModule';
import { cona } from './cona';
import { devices } from './devices';
import { fawnds } from './fawnds';
import { fawnkv } from './fawnkv';
import { queues } from './queues';
import { srcmap } from './srcmap';
import { stores } from './stores';
import { vector } from './vector';

export const LAB_MODULES: LabModule[] = [queues, devices, fawnds, fawnkv, vector, cona, stores, srcmap];
