/**
 * The largest typed array created while a piece of code runs, in bytes: a test's proof that a
 * refusal came before the work it refuses (a 1 GiB kernel built on the host, say), where a timer
 * would only suggest it, and fail on a loaded machine.
 */
const WATCHED = [
  "Float32Array",
  "Float64Array",
  "Int8Array",
  "Int16Array",
  "Int32Array",
  "Uint8Array",
  "Uint16Array",
  "Uint32Array",
  "Uint8ClampedArray",
  "BigInt64Array",
  "BigUint64Array",
] as const;

export async function largestAllocation<T>(act: () => Promise<T> | T): Promise<{ result: T; largestBytes: number }> {
  const globals = globalThis as unknown as Record<string, unknown>;
  const originals = WATCHED.map((name) => [name, globals[name]] as const);
  let largestBytes = 0;
  for (const [name, original] of originals) {
    globals[name] = new Proxy(original as new (...args: unknown[]) => ArrayBufferView, {
      construct(target, args, newTarget) {
        const created = Reflect.construct(target, args, newTarget === globals[name] ? target : newTarget);
        largestBytes = Math.max(largestBytes, created.byteLength);
        return created;
      },
    });
  }
  try {
    const result = await act();
    return { result, largestBytes };
  } finally {
    for (const [name, original] of originals) globals[name] = original;
  }
}
