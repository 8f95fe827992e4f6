import { failure, IoError, type IoResult, MAX_IMPORT_BYTES, success } from "./ioError";
import { MAX_CELLS, MAX_ROWS, MAX_TOKENS } from "./playgroundLimits";
import type { Lane } from "./playgroundProblem";
import type { PlaygroundRow } from "./playgroundState";

/**
 * A `.npy` array as numpy (`np.save`) and torch (`tensor.numpy()`) write it, read strictly:
 * magic `\x93NUMPY`, version 1.0, 2.0 or 3.0, a header dict with `descr` `<f4` or `<f8`
 * (little-endian float32 or float64), `fortran_order` False and a 1-D or 2-D `shape`, then exactly
 * the data the shape needs. Every error names the byte offset or the header field at fault.
 * (Format: https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html)
 */
export interface NpyArray {
  dtype: "float32" | "float64";
  /** `[T]` or `[B, T]`. */
  shape: number[];
  /** The values in C order, as float64 numbers. */
  data: Float64Array;
}

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

/** Parses the bytes of a `.npy` file; never throws. `source` (the file name) starts every message. */
export function parseNpy(bytes: Uint8Array, source = ".npy file"): IoResult<NpyArray> {
  const fail = (where: string, detail: string) => failure<NpyArray>(new IoError(where, detail, source));
  if (bytes.length > MAX_IMPORT_BYTES)
    return fail("", `is larger than the import limit of ${MAX_IMPORT_BYTES / 2 ** 20} MiB`);
  for (let i = 0; i < MAGIC.length; i++) {
    if (bytes[i] !== MAGIC[i]) {
      const found = i < bytes.length ? `0x${bytes[i].toString(16).padStart(2, "0")}` : "the end of the file";
      return fail(`byte ${i}`, `not a .npy file: expected the magic string \\x93NUMPY, found ${found}`);
    }
  }
  if (bytes.length < 10) return fail(`byte ${bytes.length}`, "the file ends inside the version and header length");
  const major = bytes[6];
  const minor = bytes[7];
  if (![1, 2, 3].includes(major) || minor !== 0) {
    return fail("byte 6", `format version ${major}.${minor} is not one numpy writes (1.0, 2.0 or 3.0)`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lengthBytes = major === 1 ? 2 : 4;
  const headerStart = 8 + lengthBytes;
  if (bytes.length < headerStart) return fail(`byte ${bytes.length}`, "the file ends inside the header length");
  const headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const dataStart = headerStart + headerLength;
  if (dataStart > bytes.length) {
    return fail(`byte 8`, `the header length ${headerLength} runs past the end of the file (${bytes.length} bytes)`);
  }
  const headerBytes = bytes.subarray(headerStart, dataStart);
  if (major < 3 && headerBytes.some((b) => b > 0x7f)) {
    return fail(`byte ${headerStart}`, `a version ${major}.0 header is ASCII (version 3.0 allows UTF-8)`);
  }
  let headerText: string;
  try {
    headerText = new TextDecoder("utf-8", { fatal: true }).decode(headerBytes);
  } catch {
    return fail(`byte ${headerStart}`, "the header is not valid UTF-8");
  }
  const header = parseHeader(headerText);
  if (typeof header === "string") return fail("header", header);
  const { descr, fortranOrder, shape } = header;
  if (descr === ">f4" || descr === ">f8") {
    return fail("header field descr", `'${descr}' is big-endian; save it little-endian (arr.astype('<f${descr[2]}'))`);
  }
  if (descr !== "<f4" && descr !== "<f8") {
    return fail(
      "header field descr",
      `'${descr}' is not float32 or float64 ('<f4' or '<f8'); convert with arr.astype('<f4')`,
    );
  }
  if (fortranOrder)
    return fail("header field fortran_order", "True (Fortran order); save a C-ordered array (np.ascontiguousarray)");
  if (shape.length < 1 || shape.length > 2) {
    return fail("header field shape", `(${shape.join(", ")}) has ${shape.length} dimensions; expected [T] or [B, T]`);
  }
  const [B, T] = shape.length === 1 ? [1, shape[0]] : shape;
  if (B > MAX_ROWS || T > MAX_TOKENS || B * T > MAX_CELLS) {
    return fail(
      "header field shape",
      `(${shape.join(", ")}) is above the limits (${MAX_ROWS} rows, ${MAX_TOKENS} tokens, ${MAX_CELLS} cells)`,
    );
  }
  const itemSize = descr === "<f4" ? 4 : 8;
  const expected = B * T * itemSize;
  const actual = bytes.length - dataStart;
  if (actual !== expected) {
    return fail(
      `byte ${dataStart}`,
      `shape (${shape.join(", ")}) of ${itemSize}-byte floats needs ${expected} data bytes, the file has ${actual}`,
    );
  }
  const data = new Float64Array(B * T);
  for (let i = 0; i < data.length; i++) {
    const at = dataStart + i * itemSize;
    data[i] = itemSize === 4 ? view.getFloat32(at, true) : view.getFloat64(at, true);
  }
  return success({ dtype: itemSize === 4 ? "float32" : "float64", shape, data });
}

export interface Header {
  descr: string;
  fortranOrder: boolean;
  shape: number[];
}

/**
 * The header is a Python dict literal, e.g. `{'descr': '<f4', 'fortran_order': False, 'shape': (3, 5), }`.
 * Read with a strict pattern rather than eval: exactly these three keys, in any order. Shared with
 * the .npz reader (tensorFiles/npyTensor.ts).
 */
export function parseHeader(text: string): Header | string {
  const body = text.replace(/[\s\n]+$/, "");
  if (!body.startsWith("{") || !body.endsWith("}")) return "is not a Python dict ({…})";
  const entries = new Map<string, string>();
  const entry = /\s*'([a-z_]+)'\s*:\s*('[^']*'|True|False|\([^)]*\))\s*(,|$)/y;
  const inner = body.slice(1, -1);
  entry.lastIndex = 0;
  while (entry.lastIndex < inner.length) {
    if (/^\s*$/.test(inner.slice(entry.lastIndex))) break;
    const start = entry.lastIndex;
    const match = entry.exec(inner);
    if (!match) return `cannot read the dict near ${JSON.stringify(inner.slice(start, start + 30))}`;
    if (entries.has(match[1])) return `field ${match[1]} appears twice`;
    entries.set(match[1], match[2]);
  }
  for (const key of entries.keys()) {
    if (!["descr", "fortran_order", "shape"].includes(key)) return `unknown field '${key}'`;
  }
  const descr = entries.get("descr");
  const fortran = entries.get("fortran_order");
  const shape = entries.get("shape");
  if (descr === undefined || !descr.startsWith("'")) return "field descr is missing or not a string";
  if (fortran !== "True" && fortran !== "False") return "field fortran_order is missing or not True/False";
  if (shape === undefined || !shape.startsWith("(")) return "field shape is missing or not a tuple";
  const dims = shape
    .slice(1, -1)
    .split(",")
    .map((d) => d.trim())
    .filter((d, i, all) => d !== "" || i < all.length - 1);
  if (dims.some((d) => !/^\d{1,9}$/.test(d))) return `field shape ${shape} is not a tuple of non-negative integers`;
  return { descr: descr.slice(1, -1), fortranOrder: fortran === "True", shape: dims.map(Number) };
}

/**
 * A batch from a `.npy` array into one lane: `[T]` is one row, `[B, T]` is B rows of T tokens.
 * float64 values are rounded to float32 (the playground's inputs are float32); a value
 * beyond float32 is refused with its row and token (counted from 0, as numpy indexes); NaN and ±Inf are kept.
 */
export function importNpy(bytes: Uint8Array, lane: Lane, source = ".npy file"): IoResult<PlaygroundRow[]> {
  const parsed = parseNpy(bytes, source);
  return parsed.ok ? npyRows(parsed.value, lane, source) : parsed;
}

/** The rows of a parsed `.npy` array in one lane (see importNpy). */
export function npyRows({ shape, data, dtype }: NpyArray, lane: Lane, source = ".npy file"): IoResult<PlaygroundRow[]> {
  const T = shape[shape.length - 1];
  const B = shape.length === 1 ? 1 : shape[0];
  if (B === 0 || T === 0)
    return failure(new IoError("header field shape", `(${shape.join(", ")}) holds no values`, source));
  const rows: PlaygroundRow[] = [];
  for (let b = 0; b < B; b++) {
    const values = Array.from(data.subarray(b * T, (b + 1) * T), Math.fround);
    // NaN and ±Inf are read (the playground reports and runs them, §b.4); a finite float64 that
    // float32 cannot hold is not: rounding would silently turn it into ±Inf.
    const t = values.findIndex((v, i) =>
      lane === "lossMask" ? v !== 0 && v !== 1 : Number.isFinite(data[b * T + i]) && !Number.isFinite(v),
    );
    if (t >= 0) {
      const value = data[b * T + t];
      const detail =
        lane === "lossMask" ? `a loss mask is 0 or 1, got ${value}` : `${value} is outside the float32 range (±3.4e38)`;
      return failure(new IoError(`row ${b}, token ${t}`, detail, source));
    }
    rows.push({ length: T, [lane]: values });
  }
  const notes = dtype === "float64" ? [`${source}: float64 values rounded to float32`] : [];
  return success(rows, notes);
}
