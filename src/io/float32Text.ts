/** Shortest text that reads back as the same float64; non-finite values as numpy writes them. */
export function numberText(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  return String(x);
}

/** Shortest text that reads back as the same float32 (inputs are float32: 0.1, not 0.10000000149011612). */
export function float32Text(x: number): string {
  const f = Math.fround(x);
  if (!Number.isFinite(f)) return numberText(f);
  for (let digits = 1; digits < 9; digits++) {
    const text = String(Number(f.toPrecision(digits)));
    if (Math.fround(Number(text)) === f) return text;
  }
  return String(Number(f.toPrecision(9)));
}
