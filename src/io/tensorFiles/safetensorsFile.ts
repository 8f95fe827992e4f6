import { decodeElements, heldAs, ITEM_SIZE, type StoredType } from "./elementTypes";
import { shapeClaim, TENSOR_FILE_LIMITS } from "./limits";
import { at, TensorFileError } from "./tensorFileError";
import type { PyDict, TensorFile } from "./tensorTypes";

/**
 * `.safetensors`: an 8-byte little-endian header length, a JSON header
 * `{name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__": {str: str}}`, then the raw
 * little-endian bytes, offsets counted from the end of the header. No code in the format at all;
 * the checks are that every tensor's bytes match its shape and lie inside the file.
 */
const SAFETENSORS_TYPES: Record<string, StoredType> = {
  F32: "float32",
  F64: "float64",
  F16: "float16",
  BF16: "bfloat16",
  I64: "int64",
  I32: "int32",
  I16: "int16",
  I8: "int8",
  U8: "uint8",
  BOOL: "bool",
};

/**
 * Plausible safetensors: a header length below 2^32, then `{`. A length past the end of the file
 * still counts, so that a truncated file is named as one.
 */
export function isSafetensors(bytes: Uint8Array): boolean {
  if (bytes.length < 10) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getUint32(4, true) === 0 && view.getUint32(0, true) >= 2 && bytes[8] === 0x7b;
}

interface Entry {
  name: string;
  stored: StoredType;
  shape: number[];
  begin: number;
  end: number;
}

export function readSafetensors(bytes: Uint8Array, source: string): TensorFile {
  const fail = (byte: number, detail: string): never => {
    throw new TensorFileError(at("", byte), detail, source);
  };
  if (bytes.length < 8) fail(0, "the file ends inside the safetensors header length");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(0, true) + view.getUint32(4, true) * 2 ** 32;
  if (length > TENSOR_FILE_LIMITS.maxHeaderBytes)
    fail(0, `a ${length}-byte header, above the limit of ${TENSOR_FILE_LIMITS.maxHeaderBytes}`);
  if (8 + length > bytes.length) {
    fail(
      0,
      `a truncated safetensors file: its header length says ${length} bytes, only ${bytes.length - 8} follow (an interrupted copy or save?)`,
    );
  }
  let text: string;
  let header: unknown;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(8, 8 + length));
    // A header nests three deep ({name: {shape: [...]}}); 16 MB of brackets cost JSON.parse seconds and 450 MB.
    const deep = nestedPast(text, TENSOR_FILE_LIMITS.maxNesting);
    if (deep >= 0) {
      return fail(
        8 + new TextEncoder().encode(text.slice(0, deep)).length,
        `the header nests deeper than ${TENSOR_FILE_LIMITS.maxNesting} (a safetensors header nests 3 deep)`,
      );
    }
    header = JSON.parse(text);
  } catch (error) {
    if (error instanceof TensorFileError) throw error;
    return fail(8, `the header is not valid UTF-8 JSON (${(error as Error).message})`);
  }
  if (typeof header !== "object" || header === null || Array.isArray(header))
    return fail(8, "the header is not a JSON object");
  const duplicate = firstDuplicateKey(text);
  if (duplicate !== null) {
    throw new TensorFileError(
      `header field ${JSON.stringify(duplicate)}`,
      "is named twice in the header (JSON keeps only the last; the first tensor would vanish)",
      source,
    );
  }
  const dataStart = 8 + length;
  const dataBytes = bytes.length - dataStart;
  const root: PyDict = new Map();
  const notes: string[] = [];
  const entries: Entry[] = [];
  let claimed = 0;
  let elements = 0;
  for (const [name, spec] of Object.entries(header)) {
    const refuse = (detail: string): never => {
      throw new TensorFileError(`header field ${JSON.stringify(name)}`, detail, source);
    };
    if (name === "__metadata__") {
      if (typeof spec !== "object" || spec === null || !Object.values(spec).every((v) => typeof v === "string")) {
        refuse("__metadata__ is not a map of strings");
      }
      root.set(name, new Map(Object.entries(spec as Record<string, string>)));
      continue;
    }
    const { dtype, shape, data_offsets: offsets } = (spec ?? {}) as Record<string, unknown>;
    const stored = typeof dtype === "string" ? SAFETENSORS_TYPES[dtype] : undefined;
    if (stored === undefined)
      return refuse(`dtype ${JSON.stringify(dtype)} is not one of ${Object.keys(SAFETENSORS_TYPES).join(", ")}`);
    if (!Array.isArray(shape) || shape.length > TENSOR_FILE_LIMITS.maxDims || !shape.every(isCount)) {
      return refuse(`shape ${JSON.stringify(shape)} is not a list of at most ${TENSOR_FILE_LIMITS.maxDims} counts`);
    }
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isCount) || offsets[0] > offsets[1]) {
      return refuse(`data_offsets ${JSON.stringify(offsets)} is not [begin, end]`);
    }
    const claim = shapeClaim(shape);
    claimed += claim;
    if (claim > TENSOR_FILE_LIMITS.maxElements) {
      return refuse(`shape (${shape.join(", ")}) is above the limit of ${TENSOR_FILE_LIMITS.maxElements} elements`);
    }
    const count = (shape as number[]).reduce((a, b) => a * b, 1);
    elements += count;
    if (claimed > elements + TENSOR_FILE_LIMITS.viewAllowance) {
      return refuse(
        `shape (${shape.join(", ")}) brings the elements the file's tensors claim to ${claimed}, more than the ${elements} they hold and the allowance of ${TENSOR_FILE_LIMITS.viewAllowance} (a zero-size tensor with huge dimensions)`,
      );
    }
    const [begin, end] = offsets as number[];
    if (end - begin !== count * ITEM_SIZE[stored]) {
      return refuse(
        `data_offsets [${begin}, ${end}] hold ${end - begin} bytes, shape (${shape.join(", ")}) of ${stored} needs ${count * ITEM_SIZE[stored]}`,
      );
    }
    if (end > dataBytes) {
      return refuse(
        `data_offsets [${begin}, ${end}] run past the end of the file (${dataBytes} data bytes: a truncated file?)`,
      );
    }
    entries.push({ name, stored, shape: shape as number[], begin, end });
  }
  checkCoverage(entries, dataBytes, dataStart, source);
  for (const { name, stored, shape, begin, end } of entries) {
    if (stored === "bfloat16" || stored === "float16")
      notes.push(`${source}: ${stored} tensor ${name} widened to float32`);
    const count = shape.reduce((a, b) => a * b, 1);
    const data = decodeElements(bytes.subarray(dataStart + begin, dataStart + end), stored, count);
    root.set(name, {
      kind: "tensor",
      storedDtype: stored,
      dtype: heldAs(stored),
      shape,
      data,
      origin: `tensor ${name}`,
    });
  }
  return { format: "safetensors", root, notes };
}

/**
 * The tensors' byte ranges tile the data exactly, as the format requires: no two overlap (one
 * would read the other's bytes) and no byte lies outside every range (data nothing indexes).
 */
function checkCoverage(entries: Entry[], dataBytes: number, dataStart: number, source: string): void {
  const sorted = [...entries].sort((a, b) => a.begin - b.begin || a.end - b.end);
  let covered = 0;
  let last: Entry | null = null;
  for (const entry of sorted) {
    if (entry.begin < covered && last !== null) {
      throw new TensorFileError(
        `header field ${JSON.stringify(entry.name)}`,
        `data_offsets [${entry.begin}, ${entry.end}] overlap ${JSON.stringify(last.name)}'s [${last.begin}, ${last.end}]`,
        source,
      );
    }
    if (entry.begin > covered) {
      throw new TensorFileError(
        `byte ${dataStart + covered}`,
        `data bytes ${covered}…${entry.begin - 1} belong to no tensor (the header indexes none of them)`,
        source,
      );
    }
    covered = entry.end;
    if (entry.end > entry.begin || last === null) last = entry;
  }
  if (covered < dataBytes) {
    throw new TensorFileError(
      `byte ${dataStart + covered}`,
      `${dataBytes - covered} bytes follow the last tensor's data, which no tensor in the header indexes`,
      source,
    );
  }
}

/**
 * The first key the header's top-level object names twice (JSON.parse keeps the last silently).
 * A scan of the text already parsed: strings skipped with their escapes, depth counted by brackets.
 */
function firstDuplicateKey(text: string): string | null {
  const seen = new Set<string>();
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (depth === 1 && expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (seen.has(key)) return key;
        seen.add(key);
        expectKey = false;
      }
      i = j;
    } else if (c === "{" || c === "[") {
      depth += 1;
      if (depth === 1) expectKey = true;
    } else if (c === "}" || c === "]") {
      depth -= 1;
    } else if (c === "," && depth === 1) {
      expectKey = true;
    }
  }
  return null;
}

/**
 * Where the header's brackets first nest deeper than `max`, outside strings (their escapes
 * skipped); -1 where they never do. Run before JSON.parse, so an unterminated string ends the scan.
 */
function nestedPast(text: string, max: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    } else if (c === "{" || c === "[") {
      depth += 1;
      if (depth > max) return i;
    } else if (c === "}" || c === "]") {
      depth -= 1;
    }
  }
  return -1;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}
