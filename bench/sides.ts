/** The sides a bench run measures, as the report names them. */
export const SIDES = {
  ours: 'ours',
  oursCached: 'ours, local cache on',
  powertools: 'powertools',
  powertoolsCached: 'powertools, local cache on',
  sequential: 'sequential loop',
  oursLedger: 'ours, 5-leg ledger transaction',
} as const;
