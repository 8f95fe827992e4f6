import { TENSOR_FILE_LIMITS } from "./limits";
import type { StackValue } from "./pickleMachine";
import { TensorFileError } from "./tensorFileError";
import type { PyDict, PyValue } from "./tensorTypes";

/**
 * The unpickled value as the tree readTensorFile promises: no globals or storages left in it
 * (only inside the tensors they built), no cycles, at most maxNesting deep, and at most
 * `max(maxContainerItems, pickleBytes)` values when every shared reference is walked as often as
 * it appears (a pickle can share one list many times at every level, a "billion laughs" that would
 * make any plain walk of the tree run forever). A pickle without shared containers builds at most
 * one value per byte, so the pickle's own length admits every honest tree, a rollout dump of 1,024
 * samples' token lists (17 M values) among them, while the laughs, exponential in their length,
 * are still refused.
 */
export function checkTree(root: StackValue, record: string, source: string, pickleBytes: number): PyValue {
  const limit = Math.max(TENSOR_FILE_LIMITS.maxContainerItems, pickleBytes);
  const onPath = new Set<object>();
  // Each shared container's expanded size, computed once: linear in the pickle, however deep the sharing.
  const expanded = new Map<object, number>();
  const fail = (detail: string): never => {
    throw new TensorFileError(`record ${record}`, detail, source);
  };
  const isContainer = (value: StackValue): value is StackValue[] | PyDict => {
    if (value === null || typeof value !== "object" || value instanceof Uint8Array) return false;
    if (Array.isArray(value) || value instanceof Map) return true;
    const kind = (value as { kind: string }).kind;
    if (kind === "tensor") return false;
    return fail(
      kind === "global"
        ? `a bare global (${(value as { name: string }).name}) where data belongs`
        : "a bare storage where data belongs",
    );
  };
  const size = (value: StackValue[] | PyDict, depth: number): number => {
    const known = expanded.get(value);
    if (known !== undefined) return known;
    if (depth > TENSOR_FILE_LIMITS.maxNesting) fail(`containers nested deeper than ${TENSOR_FILE_LIMITS.maxNesting}`);
    if (onPath.has(value)) fail("a container that contains itself");
    onPath.add(value);
    let total = 1;
    const items: Iterable<StackValue> = value instanceof Map ? value.values() : value;
    for (const item of items) {
      total += isContainer(item) ? size(item, depth + 1) : 1;
      if (total > limit) fail(`the object expands to more than ${limit} values (shared references)`);
    }
    onPath.delete(value);
    expanded.set(value, total);
    return total;
  };
  if (isContainer(root)) size(root, 1);
  return root as PyValue;
}

/**
 * Where `target` sits in the tree, as a field path (`samples[3].tokens`), for a refusal to name;
 * null when it is not there. Iterative, and each container is entered once however often it is
 * shared, so the walk is linear in the pickle whatever its depth.
 */
export function fieldPath(root: StackValue, target: object): string | null {
  if (root === target) return "";
  const seen = new Set<object>();
  const queue: { value: StackValue; path: string }[] = [{ value: root, path: "" }];
  for (let next = 0; next < queue.length; next++) {
    const { value, path } = queue[next];
    if (value === null || typeof value !== "object" || seen.has(value)) continue;
    seen.add(value);
    const children: [string, StackValue][] = [];
    if (value instanceof Map) {
      for (const [key, child] of value) {
        const name = String(key);
        children.push([
          /^[A-Za-z_][A-Za-z0-9_]*$/.test(name)
            ? `${path}${path ? "." : ""}${name}`
            : `${path}[${JSON.stringify(key)}]`,
          child,
        ]);
      }
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) children.push([`${path}[${i}]`, value[i]]);
    }
    for (const [childPath, child] of children) {
      if (child === target) return childPath;
      queue.push({ value: child, path: childPath });
    }
  }
  return null;
}
