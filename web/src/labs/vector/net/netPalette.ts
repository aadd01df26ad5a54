/**
 * The networked back-end view's names and colours: each cost kind's colour (the Okabe–Ito
 * palette of viz/palette.ts and two greys, so nine kinds stay apart for colour-blind readers;
 * every bar is also labelled in text), its display name and what it is paid per, and each
 * stage's name.
 */
import type { CostKindName, StageName } from './netTypes';

export interface CostKindStyle {
  label: string;
  colour: string;
  /** What one event of the kind is: paid per packet, per RPC, per key, per command … */
  per: string;
  /** Text colour on top of the colour. */
  ink: string;
}

export const COST_KINDS: Readonly<Record<CostKindName, CostKindStyle>> = {
  nic_irq: { label: 'NIC interrupt', colour: '#56B4E9', per: 'per burst of packets', ink: '#000' },
  tcp: { label: 'kernel TCP', colour: '#0072B2', per: 'per packet', ink: '#fff' },
  syscall: { label: 'recv/send', colour: '#CC79A7', per: 'per system call', ink: '#000' },
  rpc: { label: 'RPC (Thrift)', colour: '#D55E00', per: 'per RPC, plus per key', ink: '#fff' },
  lookup: { label: 'FAWN-DS lookup', colour: '#009E73', per: 'per key', ink: '#fff' },
  queue: { label: 'queue', colour: '#F0E442', per: 'per enqueue or dequeue', ink: '#000' },
  submit: { label: 'device submit', colour: '#E69F00', per: 'per command', ink: '#000' },
  io_irq: { label: 'storage interrupt', colour: '#4d4d4d', per: 'per command', ink: '#fff' },
  wakeup: { label: 'thread wake-up', colour: '#b3b3b3', per: 'per command', ink: '#000' },
};

/** A kind's style; an unknown kind (a newer core) is drawn grey under its own name. */
export function costStyle(kind: string): CostKindStyle {
  return (COST_KINDS as Record<string, CostKindStyle | undefined>)[kind] ?? { label: kind, colour: '#999999', per: '', ink: '#000' };
}

export const STAGE_LABELS: Readonly<Record<StageName, string>> = {
  client: 'client',
  wire_in: 'on the wire',
  nic: 'NIC + TCP',
  thread: 'RPC thread',
  queue: 'intermediate queue',
  device: 'NVM device',
  irq: 'completion interrupt',
  reply: 'reply',
  wire_out: 'on the wire back',
};

/** The request colour (a dot or a bundle) and the reply colour. */
export const REQUEST_COLOUR = '#0072B2';
export const REPLY_COLOUR = '#009E73';
