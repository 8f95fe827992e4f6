import { zlibSync } from "fflate";
import { bytesToBase64, float32Bytes } from "./float32Base64";
import { float32Text } from "./float32Text";
import { packBits } from "./stateWire";

/**
 * Tensors written as Python source for the pytest export, each in the shortest form that keeps
 * every value exact: a constant lane as `torch.zeros`/`torch.full` (an all-zero KL lane of 8 × 3000
 * was 128 KB of base64), up to `small` numbers as a readable list, more as little-endian bytes in
 * base64 (`np.frombuffer`), zlib-compressed (it saves 7% on random floats, far more on padding,
 * repeated rows and bounds rounded to 8 bits). NaN and ±inf are written
 * `float("nan")`, `float("inf")`, `-float("inf")`: bare `nan` is a NameError when Python imports
 * the module.
 */
export type LaneKind =
  /** float32 values (the playground's inputs are float32 numbers). */
  | "float32"
  /** 0/1 loss masks, float32 tensors as slime's tests build them; packed 8 a byte when large. */
  | "mask"
  /** float64 values, written as float32 when large: the caller folds that rounding into the bound. */
  | "reference"
  /** float64 upper bounds, rounded down to BOUND_BITS significant bits when large (never up). */
  | "bound";

/** Significant bits a large bound keeps: tighter by under 2⁻⁷ = 0.8%, and the bytes compress to a fraction. */
export const BOUND_BITS = 8;

export interface LaneWriter {
  /** A Python expression for the values as a tensor of `shape`. */
  lane(values: ArrayLike<number>, shape: number[], kind: LaneKind): string;
  /**
   * Scanlab's reference and its per-element bound, as two expressions. Large, the reference is
   * written as float32 and its rounding subtracted from the bound (then rounded down), so that
   * |x − written reference| ≤ written bound still implies |x − reference| ≤ bound.
   */
  checked(reference: ArrayLike<number>, bound: ArrayLike<number>, shape: number[]): [string, string];
  /** The helper functions the lanes written so far call (empty when none). */
  decoders(): string[];
  /** Whether any lane needs `import base64, zlib` and numpy. */
  usesBytes(): boolean;
}

export function laneWriter(small: number): LaneWriter {
  const used = new Set<"unpack" | "bits">();
  return {
    lane(values, shape, kind) {
      const dtype = kind === "reference" || kind === "bound" ? "torch.float64" : "torch.float32";
      const text = shapeText(shape);
      const first = values.length > 0 ? values[0] : 0;
      if (values.length > 0 && isConstant(values)) {
        return Object.is(first, 0)
          ? `torch.zeros(${text}, dtype=${dtype})`
          : `torch.full(${text}, ${pyFloat(first, kind !== "reference" && kind !== "bound")}, dtype=${dtype})`;
      }
      if (values.length <= small) return listTensor(values, shape, kind, dtype);
      if (kind === "mask") {
        used.add("bits");
        return `_bits(${wrapped(packed(packBits(Array.from(values))))}, ${values.length}).reshape(${text})`;
      }
      const floats = Float32Array.from(values);
      if (kind === "bound") for (let i = 0; i < floats.length; i++) floats[i] = boundBelow(values[i]);
      const bytes = float32Bytes(floats);
      const tail = kind === "float32" ? "" : ".double()";
      used.add("unpack");
      return `_unpack(${wrapped(packed(bytes))}, ${text})${tail}`;
    },
    checked(reference, bound, shape) {
      if (reference.length <= small)
        return [this.lane(reference, shape, "reference"), this.lane(bound, shape, "bound")];
      const written = Float64Array.from(reference, nearestFloat32);
      const tightened = Float64Array.from(bound, (b, i) => {
        const r = reference[i];
        return Number.isFinite(r) ? boundBelow(Math.max(0, b - Math.abs(r - written[i]))) : b;
      });
      return [this.lane(written, shape, "reference"), this.lane(tightened, shape, "bound")];
    },
    decoders() {
      const out: string[] = [];
      if (used.has("unpack")) {
        out.push(
          "",
          "def _unpack(text, shape):",
          '    """Little-endian float32 values (numpy\'s "<f4"), zlib-compressed, in base64."""',
          "    raw = zlib.decompress(base64.b64decode(text))",
          '    return torch.from_numpy(np.frombuffer(raw, dtype="<f4").copy().reshape(shape))',
          "",
        );
      }
      if (used.has("bits")) {
        out.push(
          "",
          "def _bits(text, n):",
          '    """A 0/1 mask packed 8 tokens a byte, least significant bit first, zlib-compressed, in base64."""',
          "    packed = np.frombuffer(zlib.decompress(base64.b64decode(text)), dtype=np.uint8)",
          '    return torch.from_numpy(np.unpackbits(packed, bitorder="little")[:n].astype(np.float32))',
          "",
        );
      }
      return out;
    },
    usesBytes() {
      return used.size > 0;
    },
  };
}

/** Every value the same (bits included: −0 is not 0, NaN is NaN). */
function isConstant(values: ArrayLike<number>): boolean {
  const first = values[0];
  for (let i = 1; i < values.length; i++) if (!Object.is(values[i], first)) return false;
  return true;
}

/**
 * The largest number with BOUND_BITS significant bits (a float32) that is ≤ x: a bound written
 * smaller than Scanlab computed can only make the check stricter.
 */
export function boundBelow(x: number): number {
  if (Number.isNaN(x) || x === Number.POSITIVE_INFINITY) return x;
  if (x <= 0) return 0;
  const step = 2 ** (Math.floor(Math.log2(x)) - (BOUND_BITS - 1));
  let down = Math.floor(x / step) * step;
  // log2 can be off by one near powers of two; the result must stay at or below x.
  while (down > x) down -= step;
  const f = Math.fround(down);
  return f <= x ? f : nextFloat32Down(f);
}

/** The float32 nearest to x; a finite x beyond the float32 range stays finite (±FLT_MAX), not ±inf. */
function nearestFloat32(x: number): number {
  const f = Math.fround(x);
  return Number.isFinite(x) && !Number.isFinite(f) ? Math.sign(x) * FLT_MAX : f;
}

const FLT_MAX = 3.4028234663852886e38;

function nextFloat32Down(f: number): number {
  const view = new Float32Array([f]);
  const bits = new Int32Array(view.buffer);
  bits[0] -= 1;
  return view[0];
}

/** A Python float literal: the float64 repr, or with `float32` the shortest text of the float32 value. */
export function pyFloat(x: number, float32 = false): string {
  if (Number.isNaN(x)) return 'float("nan")';
  if (!Number.isFinite(x)) return x > 0 ? 'float("inf")' : '-float("inf")';
  // String(-0) is "0": the sign of a zero input is kept, as the tensor it rebuilds had it.
  if (Object.is(x, -0)) return "-0.0";
  const text = float32 ? float32Text(x) : String(x);
  return /[.e]/.test(text) ? text.replace("e+", "e") : `${text}.0`;
}

/** A Python string literal (JSON's escapes are Python's too). */
export function pyString(text: string): string {
  return JSON.stringify(text);
}

export function shapeText(shape: number[]): string {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(", ")})`;
}

function listTensor(values: ArrayLike<number>, shape: number[], kind: LaneKind, dtype: string): string {
  const item = (v: number) => (kind === "mask" ? String(v) : pyFloat(v, kind === "float32"));
  if (shape.length === 1) return `torch.tensor([${Array.from(values, item).join(", ")}], dtype=${dtype})`;
  const [rows, cols] = shape;
  const lines = Array.from({ length: rows }, (_, b) => {
    const row = Array.from({ length: cols }, (_, t) => item(values[b * cols + t]));
    return `    [${row.join(", ")}],`;
  });
  return `torch.tensor(\n  [\n${lines.join("\n")}\n  ],\n  dtype=${dtype},\n)`;
}

function packed(bytes: Uint8Array): string {
  // Level 6 (zlib's default): level 9 saves nothing more on float data and costs more.
  return bytesToBase64(zlibSync(bytes, { level: 6 }));
}

const WRAP = 100;

/** A long base64 string as adjacent literals in parentheses, WRAP characters a line. */
function wrapped(base64: string): string {
  if (base64.length <= WRAP) return `"${base64}"`;
  const lines: string[] = [];
  for (let i = 0; i < base64.length; i += WRAP) lines.push(`        "${base64.slice(i, i + WRAP)}"`);
  return `(\n${lines.join("\n")}\n    )`;
}
