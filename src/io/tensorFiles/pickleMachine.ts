import { TENSOR_FILE_LIMITS } from "./limits";
import {
  asKey,
  type GlobalRef,
  isGlobal,
  isTuple,
  latin1,
  littleEndianInteger,
  type StackValue,
  tuple,
  typeName,
} from "./pickleValues";
import { at, TensorFileError } from "./tensorFileError";
import type { PyDict, PyValue } from "./tensorTypes";

export { type GlobalRef, isTuple, type Persistent, type StackValue, typeName } from "./pickleValues";

/**
 * A strict unpickler for the pickles torch.save writes (protocol 2, plus the few protocol 3–4
 * opcodes other writers use for the same data). A pickle is a program for a stack machine whose
 * GLOBAL and REDUCE opcodes import and call anything; this one calls nothing. GLOBAL is checked
 * against an allow-list as soon as it is read (a refused name stops the file there), and REDUCE
 * is given to `reduce`, which builds the few values a tensor dump needs itself. Every other
 * opcode that could run code (BUILD, NEWOBJ, INST, OBJ, EXT*) is refused by name and byte.
 */

export interface PickleHooks {
  /** Names GLOBAL may load (`torch._utils._rebuild_tensor_v2`, …). */
  allowedGlobals: ReadonlySet<string>;
  /** BINPERSID: turns the persistent id into a value (torch: a storage reference). */
  persistentLoad(pid: StackValue, byte: number): StackValue;
  /**
   * REDUCE of an allowed global with its argument tuple: builds the value (never calls Python).
   * `path` says where the value will sit in the tree (`samples[3].tokens`), where the opcodes after
   * it tell for certain, for a refusal made before the tree exists.
   */
  reduce(callable: GlobalRef, args: StackValue[], byte: number, path: () => string | null): StackValue;
}

export interface PickleResult {
  value: StackValue;
  /** Byte after STOP (the legacy torch format puts several pickles back to back). */
  end: number;
}

const MARK = Symbol("mark");
type Slot = StackValue | typeof MARK;

const OPCODE_NAMES: Record<number, string> = {
  98: "BUILD",
  129: "NEWOBJ",
  146: "NEWOBJ_EX",
  105: "INST",
  111: "OBJ",
  130: "EXT1",
  131: "EXT2",
  132: "EXT4",
  80: "PERSID",
  147: "STACK_GLOBAL",
};

/** One decoder for every string of a pickle: a fresh one per string was a tenth of the pickle's time (4,600 keys). */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

export function runPickle(
  bytes: Uint8Array,
  start: number,
  hooks: PickleHooks,
  record: string,
  source: string,
): PickleResult {
  const limits = TENSOR_FILE_LIMITS;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const stack: Slot[] = [];
  const marks: number[] = [];
  // An array, not a Map: indexes are written in order (0, 1, 2…) by every pickler, and a Map of
  // millions of entries spent seconds in its own upkeep. A far index makes a sparse (dictionary) array.
  // Only the entries the pickle reads back are kept (memoReads): every other value it memoises
  // (torch memoises each tensor's argument tuples, sizes and hooks dict, about 30 values a sample)
  // is garbage as soon as it is used, where the memo held them all to the end (60,000 samples:
  // 290 MB of the heap at the pickle's STOP).
  const reads = memoReads(bytes, start);
  const memo: StackValue[] = [];
  const written = new IndexSet();
  let memoEntries = 0;
  let p = start;
  let op = start;
  let steps = 0;
  const fail = (detail: string, byte = op): never => {
    throw new TensorFileError(at(record, byte), detail, source);
  };
  const need = (n: number) => {
    if (p + n > bytes.length) fail(`the pickle ends inside an opcode's argument (${n} bytes needed)`, p);
  };
  /** Reads `n` bytes' worth of argument: returns where they start and moves past them. */
  const advance = (n: number) => {
    need(n);
    p += n;
    return p - n;
  };
  const u8 = () => bytes[advance(1)];
  const u16 = () => view.getUint16(advance(2), true);
  const u32 = () => view.getUint32(advance(4), true);
  const i32 = () => view.getInt32(advance(4), true);
  const take = (n: number) => {
    if (n > limits.maxStringBytes)
      fail(`a ${n}-byte string or bytes object, above the limit of ${limits.maxStringBytes}`);
    need(n);
    p += n;
    return bytes.subarray(p - n, p);
  };
  const line = () => {
    const end = bytes.indexOf(0x0a, p);
    if (end < 0 || end - p > 256) fail("a GLOBAL opcode without its newline-terminated name");
    const text = latin1(bytes.subarray(p, end));
    p = end + 1;
    return text;
  };
  const utf8 = (raw: Uint8Array) => {
    try {
      return UTF8.decode(raw);
    } catch {
      return fail("a string that is not valid UTF-8");
    }
  };
  const counts = new Map<number, StackValue[]>();
  const oneCount = (n: number) => {
    let shared = counts.get(n);
    if (shared === undefined) {
      shared = tuple([n]);
      counts.set(n, shared);
    }
    return shared;
  };
  const push = (value: StackValue) => {
    stack.push(value);
  };
  const pop = (): StackValue => {
    const top = stack.pop();
    if (top === undefined) return fail("pops an empty stack");
    if (top === MARK) return fail("pops a MARK as a value");
    return top;
  };
  const top = (): StackValue => {
    const value = stack[stack.length - 1];
    if (value === undefined || value === MARK) return fail("needs a value on the stack");
    return value;
  };
  const popMark = (): StackValue[] => {
    const mark = marks.pop();
    if (mark === undefined) return fail("needs a MARK and there is none");
    const items = stack.splice(mark + 1) as StackValue[];
    stack.pop(); // the MARK itself
    return items;
  };
  const setMemo = (index: number) => {
    const value = top();
    if (!written.has(index)) {
      if (memoEntries >= limits.maxMemo) fail(`more than ${limits.maxMemo} memo entries`);
      memoEntries++;
      written.add(index);
    }
    if (reads.has(index)) memo[index] = value;
  };
  const getMemo = (index: number) => {
    const value = memo[index];
    if (value === undefined) {
      if (written.has(index)) throw new Error(`memo entry ${index} was read but not foreseen by memoReads`);
      fail(`memo entry ${index} is read before it is written`);
    }
    push(value as StackValue);
  };
  const growing = (container: unknown[] | PyDict, more: number) => {
    const size = container instanceof Map ? container.size : container.length;
    if (size + more > limits.maxContainerItems) fail(`a container with more than ${limits.maxContainerItems} items`);
  };
  const appendTo = (items: StackValue[]) => {
    const list = pop();
    if (!Array.isArray(list) || isTuple(list)) return fail(`APPEND to a ${typeName(list)}, not a list`);
    growing(list, items.length);
    // One at a time: a spread of 300,000 items overflows the call stack.
    for (const item of items) (list as StackValue[]).push(item);
    push(list);
  };
  const setItems = (items: StackValue[]) => {
    if (items.length % 2 !== 0) fail("SETITEMS with an odd number of keys and values");
    const dict = pop();
    if (!(dict instanceof Map)) return fail(`SETITEM on a ${typeName(dict)}, not a dict`);
    growing(dict, items.length / 2);
    for (let i = 0; i < items.length; i += 2) dict.set(asKey(items[i], fail), items[i + 1] as PyValue);
    push(dict);
  };
  const global = (module: string, name: string) => {
    const full = `${module}.${name}`;
    if (!hooks.allowedGlobals.has(full)) {
      fail(
        `GLOBAL ${JSON.stringify(full)} is not allowed: a tensor dump needs only torch's tensor rebuild functions, ` +
          "storage classes and collections.OrderedDict (a pickle is a program; this one is not run)",
      );
    }
    push({ kind: "global", name: full });
  };

  for (;;) {
    if (++steps > limits.maxPickleOps) fail(`more than ${limits.maxPickleOps} opcodes`);
    if (stack.length > limits.maxContainerItems) fail("the pickle's stack is too deep");
    op = p;
    if (p >= bytes.length) fail("the pickle ends without a STOP opcode", p);
    const code = bytes[p++];
    switch (code) {
      case 0x80: // PROTO
        if (u8() > 4) fail(`pickle protocol ${bytes[p - 1]} (torch writes 2)`);
        break;
      case 0x95: // FRAME (protocol 4): a length hint, nothing to do
        need(8);
        p += 8;
        break;
      case 0x2e: // STOP
        if (stack.length !== 1 || marks.length > 0) fail(`STOP with ${stack.length} values on the stack (expected 1)`);
        return { value: pop(), end: p };
      case 0x28: // MARK
        if (marks.length >= limits.maxNesting) fail(`MARKs nested deeper than ${limits.maxNesting}`);
        marks.push(stack.length);
        stack.push(MARK);
        break;
      case 0x7d: // EMPTY_DICT
        push(new Map());
        break;
      case 0x5d: // EMPTY_LIST
        push([]);
        break;
      case 0x29: // EMPTY_TUPLE
        push(tuple([]));
        break;
      case 0x64: {
        // DICT
        const items = popMark();
        push(new Map());
        setItems(items);
        break;
      }
      case 0x6c: // LIST
        push(popMark() as PyValue[]);
        break;
      case 0x74: // TUPLE
        push(tuple(popMark()));
        break;
      case 0x85: {
        // TUPLE1: a tuple of one count (every tensor's size and stride) made once and shared: tuples
        // cannot change, so no one can tell, and freezing millions of them cost 0.3 s at 150,000 samples.
        const item = pop();
        push(typeof item === "number" && Number.isSafeInteger(item) && item > 0 ? oneCount(item) : tuple([item]));
        break;
      }
      case 0x86: {
        // TUPLE2
        const b = pop();
        push(tuple([pop(), b]));
        break;
      }
      case 0x87: {
        // TUPLE3
        const c = pop();
        const b = pop();
        push(tuple([pop(), b, c]));
        break;
      }
      case 0x73: {
        // SETITEM
        const value = pop();
        const key = pop();
        setItems([key, value]);
        break;
      }
      case 0x75: {
        // SETITEMS: the dict sits just below the MARK
        const items = popMark();
        setItems(items);
        break;
      }
      case 0x61: // APPEND
        appendTo([pop()]);
        break;
      case 0x65: // APPENDS
        appendTo(popMark());
        break;
      case 0x58: // BINUNICODE
        push(utf8(take(u32())));
        break;
      case 0x8c: // SHORT_BINUNICODE
        push(utf8(take(u8())));
        break;
      case 0x8d: {
        // BINUNICODE8
        need(8);
        const n = view.getUint32(p, true) + view.getUint32(p + 4, true) * 2 ** 32;
        p += 8;
        push(utf8(take(n)));
        break;
      }
      case 0x42: // BINBYTES
        push(take(u32()).slice());
        break;
      case 0x43: // SHORT_BINBYTES
        push(take(u8()).slice());
        break;
      case 0x4a: // BININT
        push(i32());
        break;
      case 0x4b: // BININT1
        push(u8());
        break;
      case 0x4d: // BININT2
        push(u16());
        break;
      case 0x8a: // LONG1
        push(littleEndianInteger(take(u8())));
        break;
      case 0x47: // BINFLOAT: big-endian double
        need(8);
        push(view.getFloat64(p, false));
        p += 8;
        break;
      case 0x4e: // NONE
        push(null);
        break;
      case 0x88: // NEWTRUE
        push(true);
        break;
      case 0x89: // NEWFALSE
        push(false);
        break;
      case 0x63: {
        // GLOBAL 'module\nname\n'
        const module = line();
        global(module, line());
        break;
      }
      case 0x93: {
        // STACK_GLOBAL (protocol 4): module and name from the stack
        const name = pop();
        const module = pop();
        if (typeof module !== "string" || typeof name !== "string") fail("STACK_GLOBAL without two strings");
        global(module as string, name as string);
        break;
      }
      case 0x52: {
        // REDUCE: never a call; the hook builds the value of an allowed global
        const args = pop();
        const callable = pop();
        if (!isTuple(args)) fail(`REDUCE with ${typeName(args)} arguments, not a tuple`);
        if (!isGlobal(callable)) fail(`REDUCE of a ${typeName(callable)}, not an allowed global`);
        push(hooks.reduce(callable as GlobalRef, args as StackValue[], op, () => pathOfNext(bytes, p, stack, marks)));
        break;
      }
      case 0x51: // BINPERSID
        push(hooks.persistentLoad(pop(), op));
        break;
      case 0x71: // BINPUT
        setMemo(u8());
        break;
      case 0x72: // LONG_BINPUT
        setMemo(u32());
        break;
      case 0x94: // MEMOIZE
        setMemo(memoEntries);
        break;
      case 0x68: // BINGET
        getMemo(u8());
        break;
      case 0x6a: // LONG_BINGET
        getMemo(u32());
        break;
      case 0x30: // POP
        if (stack[stack.length - 1] === MARK) popMark();
        else pop();
        break;
      case 0x31: // POP_MARK
        popMark();
        break;
      case 0x32: // DUP
        push(top());
        break;
      default: {
        const name = OPCODE_NAMES[code];
        const shown = `0x${code.toString(16).padStart(2, "0")}`;
        fail(
          name
            ? `opcode ${name} (${shown}) is refused: it builds arbitrary objects, which a tensor dump never needs`
            : `opcode ${shown} is not one torch.save writes`,
        );
      }
    }
  }
}

/** A set of memo indexes: a bitmap for those below 2^24 (every pickler counts from 0), a Set for any far one. */
class IndexSet {
  private bits = new Uint32Array(64);
  private far: Set<number> | null = null;

  has(index: number): boolean {
    if (index >= 2 ** 24) return this.far?.has(index) ?? false;
    const word = index >>> 5;
    return word < this.bits.length && (this.bits[word] & (1 << (index & 31))) !== 0;
  }

  add(index: number): void {
    if (index >= 2 ** 24) {
      this.far ??= new Set();
      this.far.add(index);
      return;
    }
    const word = index >>> 5;
    if (word >= this.bits.length) {
      const grown = new Uint32Array(Math.max(word + 1, this.bits.length * 2));
      grown.set(this.bits);
      this.bits = grown;
    }
    this.bits[word] |= 1 << (index & 31);
  }
}

/**
 * How many argument bytes follow the opcode `code` whose arguments start at `p`, as runPickle reads
 * them (an opcode's arguments have the same length whatever the stack holds): null for an opcode
 * runPickle refuses or one whose arguments run past the end (runPickle stops there too). Its cases
 * are runPickle's, opcode for opcode (a test walks every opcode through both).
 */
function argumentBytes(bytes: Uint8Array, p: number, code: number): number | null {
  const n = bytes.length;
  let length: number;
  switch (code) {
    case 0x2e: // STOP, MARK and the opcodes without arguments
    case 0x28:
    case 0x7d:
    case 0x5d:
    case 0x29:
    case 0x64:
    case 0x6c:
    case 0x74:
    case 0x85:
    case 0x86:
    case 0x87:
    case 0x73:
    case 0x75:
    case 0x61:
    case 0x65:
    case 0x4e:
    case 0x88:
    case 0x89:
    case 0x93:
    case 0x52:
    case 0x51:
    case 0x94:
    case 0x30:
    case 0x31:
    case 0x32:
      return 0;
    case 0x80: // PROTO
    case 0x4b: // BININT1
    case 0x71: // BINPUT
    case 0x68: // BINGET
      length = 1;
      break;
    case 0x4d: // BININT2
      length = 2;
      break;
    case 0x4a: // BININT
    case 0x72: // LONG_BINPUT
    case 0x6a: // LONG_BINGET
      length = 4;
      break;
    case 0x95: // FRAME
    case 0x47: // BINFLOAT
      length = 8;
      break;
    case 0x58: // BINUNICODE
    case 0x42: // BINBYTES
      if (p + 4 > n) return null;
      length = 4 + u32At(bytes, p);
      break;
    case 0x8c: // SHORT_BINUNICODE
    case 0x43: // SHORT_BINBYTES
    case 0x8a: // LONG1
      if (p >= n) return null;
      length = 1 + bytes[p];
      break;
    case 0x8d: // BINUNICODE8
      if (p + 8 > n) return null;
      length = 8 + u32At(bytes, p) + u32At(bytes, p + 4) * 2 ** 32;
      break;
    case 0x63: {
      // GLOBAL: two newline-terminated names
      const first = bytes.indexOf(0x0a, p);
      const second = first < 0 ? -1 : bytes.indexOf(0x0a, first + 1);
      if (second < 0) return null;
      length = second + 1 - p;
      break;
    }
    default:
      return null;
  }
  return p + length <= n ? length : null;
}

/** The little-endian uint32 at `at`. */
function u32At(bytes: Uint8Array, at: number): number {
  return (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16)) + bytes[at + 3] * 2 ** 24;
}

/**
 * The memo entries a pickle reads back (BINGET, LONG_BINGET), found by walking its opcodes from
 * `start` to its STOP without running them (argumentBytes): the walk sees every opcode runPickle
 * will run, and stops where runPickle stops.
 */
function memoReads(bytes: Uint8Array, start: number): { has(index: number): boolean } {
  const reads = new IndexSet();
  let p = start;
  while (p < bytes.length) {
    const code = bytes[p++];
    if (code === 0x2e) break;
    const length = argumentBytes(bytes, p, code);
    if (length === null) break;
    if (code === 0x68) reads.add(bytes[p]);
    else if (code === 0x6a) reads.add(u32At(bytes, p));
    p += length;
  }
  return reads;
}

/**
 * Where the value pushed next will sit in the tree (`samples[3].tokens`), for a refusal made before
 * the tree exists. The stack holds every container and key on the way down from the root, but not
 * which opcode will join them (a dict of one item is filled by a SETITEM without a MARK, so the
 * stack alone cannot tell a finished dict from one still filling): the opcodes after `p` are walked
 * without being run, tracking only the stack's height and marks, until the SETITEM(S) or
 * APPEND(S) that takes the value, then the one that takes its container, and so on to the root.
 * Linear in the pickle, and nothing is built. Null where the value goes elsewhere (into a tuple, an
 * argument, a key) or the walk stops first.
 */
function pathOfNext(bytes: Uint8Array, p: number, stack: Slot[], marks: number[]): string | null {
  const steps: string[] = [];
  // Items appended during the walk to the lists now on the stack, by their place there.
  const appended = new Map<number, number>();
  const walkMarks = [...marks];
  let height = stack.length + 1;
  // Where the value (then its container, and so on) sits on the walked stack.
  let slot = stack.length;
  const keyStep = (at: number): boolean => {
    const key = at < stack.length ? stack[at] : undefined;
    if (typeof key !== "string" && typeof key !== "number") return false;
    const name = String(key);
    steps.push(/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? `.${name}` : `[${JSON.stringify(key)}]`);
    return true;
  };
  const listStep = (at: number, index: number): boolean => {
    const list = at < stack.length ? stack[at] : undefined;
    if (!Array.isArray(list) || isTuple(list)) return false;
    steps.push(`[${(list as StackValue[]).length + (appended.get(at) ?? 0) + index}]`);
    return true;
  };
  while (p < bytes.length) {
    const code = bytes[p++];
    const length = argumentBytes(bytes, p, code);
    if (length === null) return null;
    p += length;
    // How many values the opcode pops (-1: to its MARK), and whether it pushes one.
    let pops = 0;
    let pushes = 1;
    switch (code) {
      case 0x2e: // STOP
        if (slot !== 0 || height !== 1) return null;
        return steps.reverse().join("").replace(/^\./, "");
      case 0x28: // MARK
        walkMarks.push(height);
        break;
      case 0x73: {
        // SETITEM: dict, key, value
        if (slot === height - 1) {
          if (!(stack[height - 3] instanceof Map) || !keyStep(height - 2)) return null;
          slot = height - 3;
        } else if (slot === height - 2) return null;
        pops = 2;
        pushes = 0;
        break;
      }
      case 0x75: // SETITEMS: the dict below the MARK
      case 0x65: {
        // APPENDS: the list below the MARK
        const mark = walkMarks.pop();
        if (mark === undefined) return null;
        if (slot > mark) {
          const index = slot - mark - 1;
          if (
            code === 0x75
              ? index % 2 !== 1 || !(stack[mark - 1] instanceof Map) || !keyStep(slot - 1)
              : !listStep(mark - 1, index)
          )
            return null;
          slot = mark - 1;
        }
        if (code === 0x65) appended.set(mark - 1, (appended.get(mark - 1) ?? 0) + (height - mark - 1));
        height = mark;
        pushes = 0;
        break;
      }
      case 0x61: // APPEND: list, value
        if (slot === height - 1) {
          if (!listStep(height - 2, 0)) return null;
          slot = height - 2;
        }
        appended.set(height - 2, (appended.get(height - 2) ?? 0) + 1);
        pops = 1;
        pushes = 0;
        break;
      case 0x64: // DICT, LIST, TUPLE: a new container of the items above the MARK
      case 0x6c:
      case 0x74:
      case 0x31: {
        // POP_MARK
        const mark = walkMarks.pop();
        if (mark === undefined || slot >= mark) return null;
        height = mark;
        pushes = code === 0x31 ? 0 : 1;
        break;
      }
      case 0x30: // POP (a MARK or a value)
        if (walkMarks.length > 0 && walkMarks[walkMarks.length - 1] === height - 1) walkMarks.pop();
        pops = 1;
        pushes = 0;
        break;
      case 0x85: // TUPLE1, TUPLE2, TUPLE3, REDUCE, BINPERSID, STACK_GLOBAL: values taken into another
        pops = 1;
        break;
      case 0x86:
      case 0x93:
      case 0x52:
        pops = 2;
        break;
      case 0x87:
        pops = 3;
        break;
      case 0x51:
        pops = 1;
        break;
      case 0x80: // PROTO, FRAME and the memo's opcodes change nothing on the stack
      case 0x95:
      case 0x71:
      case 0x72:
      case 0x94:
        pushes = 0;
        break;
    }
    if (pops > 0) {
      if (height - pops <= slot) return null;
      if (walkMarks.length > 0 && walkMarks[walkMarks.length - 1] >= height - pops) return null;
      height -= pops;
    }
    height += pushes;
  }
  return null;
}
