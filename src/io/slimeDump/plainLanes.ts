import { TensorFileError } from "../tensorFiles/tensorFileError";
import { isDict, isTensor, type PyValue, type Tensor, type TensorData } from "../tensorFiles/tensorTypes";
import type { PlainLanes } from "./dumpTypes";
import { exactElements } from "./fieldReaders";

/**
 * Lanes of a file saved by hand (`torch.save({"rewards": …, "loss_mask": …})`, `np.savez`,
 * safetensors), picked by name among its 1-D and 2-D tensors: a `[T]` tensor is one row, `[B, T]`
 * B rows. The names are those slime, OpenRLHF and verl use for the same lanes.
 */
const LANE_NAMES: Record<"rewards" | "values" | "kl" | "lossMask", string[]> = {
  rewards: ["rewards", "reward", "token_level_rewards", "token_rewards", "scores"],
  values: ["values", "value"],
  kl: ["kl", "kls"],
  lossMask: ["loss_mask", "loss_masks", "mask", "action_mask", "response_mask"],
};

export function plainLanes(root: PyValue, source: string): PlainLanes {
  const found = new Map<string, Tensor>();
  if (isTensor(root)) found.set("tensor", root);
  else if (isDict(root)) for (const [key, value] of root) if (isTensor(value)) found.set(String(key), value);
  const lanes: PlainLanes = { unused: [] };
  const taken = new Set<string>();
  // A lane read is refused by its name where it holds an int64 a float64 would round; one left unused is not.
  const read = (name: string) =>
    exactElements(found.get(name) as Tensor, (detail) => {
      throw new TensorFileError(`field ${name}`, detail, source);
    });
  for (const [lane, names] of Object.entries(LANE_NAMES) as [keyof typeof LANE_NAMES, string[]][]) {
    const name = names.find((n) => found.has(n) && isLane(found.get(n) as Tensor));
    if (name === undefined) continue;
    lanes[lane] = rowsOf((found.get(name) as Tensor).shape, read(name));
    taken.add(name);
  }
  const lengthName = ["lengths", "response_lengths", "length"].find((n) => found.get(n)?.shape.length === 1);
  if (lengthName) {
    lanes.lengths = Array.from(read(lengthName));
    taken.add(lengthName);
  }
  for (const [name, t] of found)
    if (!taken.has(name)) lanes.unused.push(`${name} (${t.dtype}, shape (${t.shape.join(", ")}))`);
  return lanes;
}

function isLane(t: Tensor): boolean {
  return t.shape.length === 1 || t.shape.length === 2;
}

function rowsOf(shape: number[], data: TensorData): Float64Array[] {
  if (shape.length === 1) return [new Float64Array(data)];
  const [B, T] = shape;
  return Array.from({ length: B }, (_, b) => new Float64Array(data.subarray(b * T, (b + 1) * T)));
}
