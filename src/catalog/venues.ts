/**
 * Display names of venues. A live venue is named by its ccxt exchange id (`kraken`), which is also its id: we hold no
 * directory of real venues. The seeded demo's invented venues (named so they cannot be mistaken for real exchanges)
 * carry names of their own, kept here so that the presenters name them without importing the demo generator, whose
 * model of each venue is `src/demo/venues.ts`.
 */
export const DEMO_VENUE_NAMES = {
  'demo-cex-alpha': 'Demo CEX Alpha',
  'demo-cex-bravo': 'Demo CEX Bravo',
  'demo-cex-charlie': 'Demo CEX Charlie',
  'demo-cex-delta': 'Demo CEX Delta',
  'demo-cex-echo': 'Demo CEX Echo',
  'demo-cex-foxtrot': 'Demo CEX Foxtrot',
  'demo-dex-aurora': 'Demo DEX Aurora',
  'demo-dex-basin': 'Demo DEX Basin',
  'demo-dex-cove': 'Demo DEX Cove',
} as const;

/** The id of one of the demo's venues. */
export type DemoVenueId = keyof typeof DEMO_VENUE_NAMES;
