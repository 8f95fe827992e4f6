/**
 * The decimal with the fewest significant digits inside value ± uncertainty, else the value
 * itself: what a user typed on slime's command line (0.99, not 0.99000000124 read back through
 * float32), so a replay uses the setting exactly.
 */
export function cleanDecimal(value: number, uncertainty: number): number {
  if (!Number.isFinite(value) || !(uncertainty >= 0)) return value;
  if (value === 0 || Math.abs(value) <= uncertainty) return 0;
  for (let digits = 1; digits <= 17; digits++) {
    const candidate = Number(value.toPrecision(digits));
    if (Math.abs(candidate - value) <= uncertainty) return candidate;
  }
  return value;
}
