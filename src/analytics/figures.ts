/**
 * Whether a change between two shown figures (each rounded to at most 2 decimals) reaches a threshold. The difference
 * of two such decimals is not exact in binary (4.6 - 4.4 = 0.19999...), so it is compared at the figures' precision:
 * a drop a reader sees as 0.2 stars is one.
 */
export function reaches(change: number, threshold: number): boolean {
  return Math.round(change * 100) >= Math.round(threshold * 100);
}
