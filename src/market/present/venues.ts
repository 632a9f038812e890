/**
 * Display names of the venues we aggregate from. The seeded demo's invented venues carry their own names; a live
 * venue is named by its ccxt exchange id (`kraken`), which is also its id: we hold no other directory of venues.
 */
import { DEMO_VENUE_NAMES } from '../../catalog/venues.ts';

const NAMES: ReadonlyMap<string, string> = new Map(Object.entries(DEMO_VENUE_NAMES));

/** The venue's display name: the demo venue's name, else its id. */
export function venueName(id: string): string {
  return NAMES.get(id) ?? id;
}
