import type { ByteSource } from "./byteSource";
import { shapeClaim, TENSOR_FILE_LIMITS } from "./limits";
import { readNpyTensor } from "./npyTensor";
import { TensorFileError } from "./tensorFileError";
import type { PyDict, TensorFile } from "./tensorTypes";
import { readZip, type ZipArchive } from "./zipArchive";

/** Whether a zip archive is numpy's: every entry an `.npy` array (`np.savez`, `np.savez_compressed`). */
export function isNpz(archive: ZipArchive): boolean {
  return archive.entries.size > 0 && [...archive.entries.keys()].every((name) => name.endsWith(".npy"));
}

/** A `.npz` as a dict of its arrays, named as `np.load` names them (the entry name without `.npy`). */
export function readNpz(file: ByteSource, archive: ZipArchive = readZip(file)): TensorFile {
  const source = file.name;
  if (!isNpz(archive))
    throw new TensorFileError("", "is a zip archive but not a .npz (an entry is not an .npy array)", source);
  const root: PyDict = new Map();
  const notes: string[] = [];
  let elements = 0;
  let claimed = 0;
  for (const entry of archive.entries.values()) {
    const tensor = readNpyTensor(archive.read(entry), entry.name, source);
    elements += tensor.data.length;
    if (elements > TENSOR_FILE_LIMITS.maxElements) {
      throw new TensorFileError(
        `record ${entry.name}`,
        `brings the file's elements above the limit of ${TENSOR_FILE_LIMITS.maxElements}`,
        source,
      );
    }
    // An array's data is its bytes; a zero-size one's other dimensions are not, and are charged here.
    claimed += shapeClaim(tensor.shape);
    if (claimed > elements + TENSOR_FILE_LIMITS.viewAllowance) {
      throw new TensorFileError(
        `record ${entry.name}`,
        `shape (${tensor.shape.join(", ")}) brings the elements the file's arrays claim to ${claimed}, more than the ${elements} they hold and the allowance of ${TENSOR_FILE_LIMITS.viewAllowance} (a zero-size array with huge dimensions)`,
        source,
      );
    }
    if (tensor.storedDtype === "float16") notes.push(`${source}: float16 array ${entry.name} widened to float32`);
    root.set(entry.name.slice(0, -".npy".length), tensor);
  }
  return { format: "npz", root, notes };
}
