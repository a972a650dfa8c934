/**
 * The trades the simulators and the demo know: a business's trade picks its simulated search keywords
 * (src/providers/google/performance.sim-data.ts), the competitors it meets on the simulated map (src/providers/ranking/simulator.ts) and the
 * reviews the demo writes for it (src/services/demo-content.ts).
 */
export const TRADES = ['dentist', 'vet', 'bakery'] as const;
export type Trade = (typeof TRADES)[number];

/** The trade a business name or a search keyword says, if it says one ("Bright Smiles Dental", "emergency vet"). */
export function tradeOfName(name: string): Trade | null {
  const n = name.toLowerCase();
  if (/dent|smile|orthodont|teeth|tooth|invisalign|root canal/.test(n)) return 'dentist';
  if (/\bvets?\b|veterinar|animal|\bpets?\b|\bpuppy|\bcat\b|\bdog\b|spay/.test(n)) return 'vet';
  if (/bak|bread|pastry|patisserie|cake|croissant|bagel|donut|sourdough/.test(n)) return 'bakery';
  return null;
}
