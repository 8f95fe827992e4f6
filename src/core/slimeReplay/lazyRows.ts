import type { DumpOutputs } from "./replayDump";

/**
 * `stored[i][field]` for every i, each read when it is indexed instead of collected up front: a
 * dump read from its file (src/io/slimeDump/streamedFields.ts) then reads a row when a pass uses
 * it and drops it after, where `stored.map((s) => s.returns)` held every row of the batch at once.
 * The same values as that map for a dump held whole. Read row by row, never per token.
 */
export function rowsOf<K extends keyof DumpOutputs>(stored: DumpOutputs[], field: K): DumpOutputs[K][] {
  return new Proxy(stored, {
    get(target, key, receiver) {
      if (typeof key === "string") {
        const i = Number(key);
        if (Number.isInteger(i) && i >= 0 && String(i) === key) return target[i]?.[field];
      }
      return Reflect.get(target, key, receiver);
    },
  }) as unknown as DumpOutputs[K][];
}
