/**
 * How many response tokens CP rank r holds of one sample, by arithmetic (cpLayout builds the whole
 * layout; telling a file's rank from its slice lengths tries every rank of every cp_size on every
 * sample, so this stays allocation-free). The same rule as cpLayout: chunks r and 2n − 1 − r of
 * c = ceil(T / 2n) positions, each holding the response logits [max(a, P − 1), min(b, T − 1)).
 * A sample without a response token (R = 0) gives every rank 0.
 */
export function cpLocalLength(totalLength: number, responseLength: number, cpSize: number, rank: number): number {
  if (responseLength <= 0) return 0;
  const c = Math.ceil(totalLength / (2 * cpSize));
  const first = Math.max(totalLength - responseLength - 1, 0);
  const last = totalLength - 1;
  const piece = (chunk: number) => Math.max(0, Math.min((chunk + 1) * c, last) - Math.max(chunk * c, first));
  return piece(rank) + piece(2 * cpSize - 1 - rank);
}
