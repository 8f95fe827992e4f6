import { TENSOR_FILE_LIMITS } from "./limits";
import type { StackValue } from "./pickleMachine";
import { TensorFileError } from "./tensorFileError";
import type { PyValue } from "./tensorTypes";

/**
 * The unpickled value as the tree readTensorFile promises: no globals or storages left in it
 * (only inside the tensors they built), no cycles, at most maxNesting deep, and at most
 * maxContainerItems values when every shared reference is walked as often as it appears (a
 * pickle can share one list many times at every level, a "billion laughs" that would make any
 * plain walk of the tree run forever).
 */
export function checkTree(root: StackValue, record: string, source: string): PyValue {
  const onPath = new Set<object>();
  let visited = 0;
  const fail = (detail: string): never => {
    throw new TensorFileError(`record ${record}`, detail, source);
  };
  const walk = (value: StackValue, depth: number): void => {
    if (++visited > TENSOR_FILE_LIMITS.maxContainerItems) {
      fail(`the object expands to more than ${TENSOR_FILE_LIMITS.maxContainerItems} values (shared references)`);
    }
    if (depth > TENSOR_FILE_LIMITS.maxNesting) fail(`containers nested deeper than ${TENSOR_FILE_LIMITS.maxNesting}`);
    if (value === null || typeof value !== "object" || value instanceof Uint8Array) return;
    if (!Array.isArray(value) && !(value instanceof Map)) {
      const kind = (value as { kind: string }).kind;
      if (kind === "tensor") return;
      fail(
        kind === "global"
          ? `a bare global (${(value as { name: string }).name}) where data belongs`
          : "a bare storage where data belongs",
      );
    }
    if (onPath.has(value)) fail("a container that contains itself");
    onPath.add(value);
    const items: Iterable<StackValue> = value instanceof Map ? value.values() : (value as StackValue[]);
    for (const item of items) walk(item, depth + 1);
    onPath.delete(value);
  };
  walk(root, 0);
  return root as PyValue;
}
