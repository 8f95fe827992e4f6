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
  /** REDUCE of an allowed global with its argument tuple: builds the value (never calls Python). */
  reduce(callable: GlobalRef, args: StackValue[], byte: number): StackValue;
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
  const memo: StackValue[] = [];
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
    if (memo[index] === undefined) {
      if (memoEntries >= limits.maxMemo) fail(`more than ${limits.maxMemo} memo entries`);
      memoEntries++;
    }
    memo[index] = value;
  };
  const getMemo = (index: number) => {
    const value = memo[index];
    if (value === undefined) fail(`memo entry ${index} is read before it is written`);
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
      case 0x85: // TUPLE1
        push(tuple([pop()]));
        break;
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
        push(hooks.reduce(callable as GlobalRef, args as StackValue[], op));
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
