import { describeThrown, failure, IoError, type IoResult, success } from "../ioError";
import { TENSOR_FILE_LIMITS } from "./limits";
import { isNpz, readNpz } from "./npzFile";
import { isSafetensors, readSafetensors } from "./safetensorsFile";
import { TensorFileError } from "./tensorFileError";
import type { TensorFile } from "./tensorTypes";
import { isLegacyTorch, readTorchLegacy, readTorchZip } from "./torchFile";
import { isZip, readZip } from "./zipArchive";

/**
 * Reads a torch `.pt` (zip or legacy), a numpy `.npz` or a `.safetensors` file into a plain object
 * tree (tensorTypes.ts). The format is told by the bytes, not the name; `fileName` starts every
 * message. Pure and synchronous on a Uint8Array, so it runs as well in a worker as in Node.
 * Never throws: a file it refuses comes back as an IoError naming the record or byte and why.
 */
export function readTensorFile(bytes: Uint8Array, fileName: string): IoResult<TensorFile> {
  try {
    const file = readAny(bytes, fileName);
    return success(file, file.notes);
  } catch (error) {
    if (error instanceof TensorFileError) return failure(error);
    if (error instanceof RangeError) {
      // An allocation the limits should have prevented: still a refusal of this file, not a crash.
      return failure(new IoError("", `could not be read (${describeThrown(error)})`, fileName));
    }
    throw error;
  }
}

function readAny(bytes: Uint8Array, source: string): TensorFile {
  if (bytes.length > TENSOR_FILE_LIMITS.maxFileBytes) {
    throw new TensorFileError(
      "",
      `is ${bytes.length} bytes, above the limit of ${TENSOR_FILE_LIMITS.maxFileBytes}`,
      source,
    );
  }
  if (isZip(bytes)) {
    const archive = readZip(bytes, source);
    return isNpz(archive) ? readNpz(bytes, source, archive) : readTorchZip(bytes, source);
  }
  if (isLegacyTorch(bytes)) return readTorchLegacy(bytes, source);
  if (isSafetensors(bytes)) return readSafetensors(bytes, source);
  const head = Array.from(bytes.subarray(0, 8), (b) => b.toString(16).padStart(2, "0")).join(" ");
  throw new TensorFileError(
    "byte 0",
    `not a torch .pt (zip or legacy), .npz or .safetensors file (it starts with ${head || "nothing: the file is empty"})`,
    source,
  );
}
