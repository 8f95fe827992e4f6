/**
 * A count with thousands separators ("131,072"), as `toLocaleString("en-US")` writes an integer.
 * Not Intl: Chromium's first number formatting in a page loads its locale data, 50–100 ms in the
 * task that opens the playground.
 */
export function countText(n: number): string {
  if (!Number.isSafeInteger(n)) return String(n);
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ",");
  return n < 0 ? `-${digits}` : digits;
}
