/**
 * The words the review queues share: plan names, counts and times as shown, and which server refusals mean "someone
 * already decided this".
 */
import { GraphError } from '../../shared/graph.ts';
import { dayClock } from './logic.ts';

export const PLAN_NAMES: Record<string, string> = { FREE: 'Free', PRO: 'Pro', ENTERPRISE: 'Enterprise' };
export const n = (v: number) => v.toLocaleString('en-US');
export const when = (iso: string) => `${dayClock(Date.parse(iso))} UTC`;

/** A server answer meaning "someone already decided this" (the item is no longer in the queue). */
export const alreadyDecided = (e: unknown) =>
  e instanceof GraphError && /STATE_CONFLICT|NOT_FOUND/.test(e.code);
