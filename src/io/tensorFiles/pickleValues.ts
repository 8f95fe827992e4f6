import type { PyKey, PyValue } from "./tensorTypes";

/** The values on the unpickler's stack, and the helpers the machine and torch's hooks share. */

/** An allow-listed `module.name`, on the stack only: never part of the returned tree. */
export interface GlobalRef {
  kind: "global";
  name: string;
}

/** What a persistent id turns into (torch: a storage); resolved by the container's reader. */
export interface Persistent {
  kind: "persistent";
  value: unknown;
}

export type StackValue = PyValue | GlobalRef | Persistent | StackValue[];

/**
 * Tuples are arrays too, frozen so that APPEND and SETITEM cannot change them; a list never is. (A
 * WeakSet of tuples cost more than the rest of the reader on a dump of 20,000 samples: the garbage
 * collector walks a weak collection of millions of entries at every collection.)
 */
export function tuple(items: StackValue[]): StackValue[] {
  return Object.freeze(items) as StackValue[];
}

export function isTuple(value: unknown): value is StackValue[] {
  return Array.isArray(value) && Object.isFrozen(value);
}

export function isPersistent(value: unknown): value is Persistent {
  return typeof value === "object" && value !== null && (value as Persistent).kind === "persistent";
}

export function isGlobal(value: unknown): value is GlobalRef {
  return typeof value === "object" && value !== null && (value as GlobalRef).kind === "global";
}

export function asKey(value: StackValue, fail: (detail: string) => never): PyKey {
  if (value === null || ["string", "number", "bigint", "boolean"].includes(typeof value)) return value as PyKey;
  if (isTuple(value) && value.every((v) => typeof v === "string" || typeof v === "number")) {
    return `(${value.map((v) => JSON.stringify(v)).join(", ")})`;
  }
  return fail(`a dict key that is a ${typeName(value)}`);
}

export function typeName(value: unknown): string {
  if (value === null) return "None";
  if (isTuple(value)) return "tuple";
  if (Array.isArray(value)) return "list";
  if (value instanceof Map) return "dict";
  if (value instanceof Uint8Array) return "bytes";
  if (typeof value === "object") return (value as { kind?: string }).kind ?? "object";
  return typeof value;
}

/** LONG1's two's-complement little-endian integer: a number when exact, else a bigint. */
export function littleEndianInteger(raw: Uint8Array): number | bigint {
  let value = 0n;
  for (let i = raw.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(raw[i]);
  if (raw.length > 0 && raw[raw.length - 1] & 0x80) value -= 1n << BigInt(8 * raw.length);
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

export function latin1(raw: Uint8Array): string {
  let text = "";
  for (const b of raw) text += String.fromCharCode(b);
  return text;
}
