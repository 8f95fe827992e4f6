/**
 * lz-string's `decompressFromEncodedURIComponent` (lz-string 1.5.0, the format `encodeState`
 * writes with the library), with a bound on the output. LZ decompression can expand a short text
 * quadratically: a 100 KB link could ask for billions of characters and hang the page before any
 * size check ran. This reader stops as soon as the output passes `maxChars`, so a hostile link
 * costs no more than the largest legitimate one. The tests check it against the library itself.
 */
const URI_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$";
const VALUE = new Map(Array.from(URI_SAFE, (c, i) => [c, i]));

export type Decompressed = { ok: true; text: string } | { ok: false; reason: "damaged" | "too large" };

export function decompressBounded(input: string, maxChars: number): Decompressed {
  if (input === "") return { ok: false, reason: "damaged" };
  const text = input.replace(/ /g, "+"); // a "+" read back from a query string as a space
  // Bits come 6 per character, most significant first; an unknown character reads as 0, as in the library.
  let value = VALUE.get(text[0]) ?? 0;
  let position = 32;
  let index = 1;
  const read = (count: number): number => {
    let bits = 0;
    for (let power = 0; power < count; power++) {
      const bit = value & position;
      position >>= 1;
      if (position === 0) {
        position = 32;
        value = VALUE.get(text[index++]) ?? 0;
      }
      if (bit) bits |= 1 << power;
    }
    return bits >>> 0;
  };
  const dictionary: string[] = [];
  let dictSize = 4;
  let numBits = 3;
  let enlargeIn = 4;
  const first = read(2);
  if (first === 2) return { ok: true, text: "" };
  if (first === 3) return { ok: false, reason: "damaged" }; // no such code (the library returns garbage)
  let w = String.fromCharCode(read(first === 0 ? 8 : 16));
  dictionary[3] = w;
  const result = [w];
  let total = w.length;
  for (;;) {
    if (index > text.length) return { ok: false, reason: "damaged" };
    let code = read(numBits);
    if (code === 2) return { ok: true, text: result.join("") };
    if (code === 0 || code === 1) {
      dictionary[dictSize++] = String.fromCharCode(read(code === 0 ? 8 : 16));
      code = dictSize - 1;
      if (--enlargeIn === 0) enlargeIn = 2 ** numBits++;
    }
    let entry = dictionary[code];
    if (entry === undefined) {
      if (code !== dictSize) return { ok: false, reason: "damaged" };
      entry = w + w.charAt(0);
    }
    total += entry.length;
    if (total > maxChars) return { ok: false, reason: "too large" };
    result.push(entry);
    dictionary[dictSize++] = w + entry.charAt(0);
    w = entry;
    if (--enlargeIn === 0) enlargeIn = 2 ** numBits++;
  }
}
