import { failure, type IoResult, success } from "../ioError";
import type { ByteSource } from "../tensorFiles/byteSource";
import { readTensorSource, refusal } from "../tensorFiles/readTensorFile";
import { isDict, type PyValue } from "../tensorFiles/tensorTypes";
import type { UnderstoodDump } from "./dumpTypes";
import type { StreamOptions } from "./streamedFields";
import { understandDump } from "./understandDump";

/** A dump file read and understood: what the CLI and the run view open, one file at a time. */
export interface OpenedDump {
  dump: UnderstoodDump;
  /** slime's rollout_id (the root's, else the number in `train_data/12.pt`); null when neither says. */
  step: number | null;
}

/**
 * Reads one dump from its source; the notes of reading and understanding are the dump's notes.
 * The tensors are read from the source while the dump is understood (each field copied once),
 * so the file is never held whole; the source can be closed when this returns. `streamed`: a
 * train dump's long per-token fields are checked now but read again from the source whenever a
 * pass over the samples asks for them (streamedFields.ts), so the source must stay open while
 * the dump is used, and a late read can throw an IoError naming the field.
 */
export function openDump(source: ByteSource, options: StreamOptions = {}): IoResult<OpenedDump> {
  const tree = readTensorSource(source);
  if (!tree.ok) return failure(tree.error);
  let understood: ReturnType<typeof understandDump>;
  try {
    // The tree is this call's own: each sample's part of it goes once the sample is read.
    understood = understandDump(tree.value.root, source.name, { ...options, consume: true });
  } catch (error) {
    // A tensor read late: the file changed or ended, or an element the reader refuses (an int64 past 2^53).
    return failure(refusal(error, source.name));
  }
  if (!understood.ok) return failure(understood.error);
  // Set in place, not spread into a copy: a spread would make the train dump's settingsGuess, which
  // is made when first read, now.
  const dump = understood.value;
  dump.notes = [...tree.notes, ...dump.notes];
  return success({ dump, step: stepOf(tree.value.root, source.name) });
}

/**
 * slime's rollout_id: train and rollout dumps store it at their root (format_version 2); a file
 * without it that is still called `train_data/12.pt` says it by its name.
 */
export function stepOf(root: PyValue, fileName: string): number | null {
  const id = isDict(root) ? root.get("rollout_id") : undefined;
  if (typeof id === "number" && Number.isSafeInteger(id) && id >= 0) return id;
  if (typeof id === "bigint" && id >= 0n && id <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(id);
  const named = /^(\d{1,15})\.(pt|pth)$/.exec(fileName.split("/").pop() ?? fileName);
  return named ? Number(named[1]) : null;
}
