import { describeThrown, failure, IoError, type IoResult, success } from "../ioError";
import { type ByteSource, bytesSource } from "./byteSource";
import { TENSOR_FILE_LIMITS } from "./limits";
import { isNpz, readNpz } from "./npzFile";
import { isSafetensors, readSafetensors } from "./safetensorsFile";
import { TensorFileError } from "./tensorFileError";
import type { TensorFile } from "./tensorTypes";
import { isLegacyTorch, readTorchLegacy } from "./torchLegacy";
import { readTorchZip } from "./torchZip";
import { isZip, readZip } from "./zipArchive";

/**
 * Reads a torch `.pt` (zip or legacy), a numpy `.npz` or a `.safetensors` file into a plain object
 * tree (tensorTypes.ts). The format is told by the bytes, not the name; the source's name starts
 * every message. A zip file (torch's and numpy's) is read by random access, so its size is not
 * limited and its tensors are read when asked for: keep the source readable until they are.
 * Synchronous, so it runs as well in a worker as in Node. Never throws: a file it refuses comes
 * back as an IoError naming the record or byte and why.
 */
export function readTensorSource(source: ByteSource): IoResult<TensorFile> {
  try {
    const file = readAny(source);
    return success(file, file.notes);
  } catch (error) {
    return failure(refusal(error, source.name));
  }
}

/** The same, for a file already in memory. */
export function readTensorFile(bytes: Uint8Array, fileName: string): IoResult<TensorFile> {
  return readTensorSource(bytesSource(bytes, fileName));
}

/**
 * A reader's error as the file's refusal. A RangeError is an allocation the limits should have
 * prevented, and a read that failed (the file was changed, moved or deleted since it was chosen:
 * the browser's NotReadableError or NotFoundError, Node's EIO) is the file's too: still a refusal
 * of this file, not a crash. Anything else is a bug and is rethrown.
 */
export function refusal(error: unknown, fileName: string): IoError {
  if (error instanceof IoError) return error;
  if (error instanceof RangeError || isReadFailure(error)) {
    return new IoError("", `could not be read (${describeThrown(error)})`, fileName);
  }
  throw error;
}

function isReadFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === "NotReadableError" ||
    error.name === "NotFoundError" ||
    typeof (error as { code?: unknown }).code === "string"
  );
}

function readAny(source: ByteSource): TensorFile {
  const name = source.name;
  const head = source.read(0, 8);
  if (isZip(head)) {
    const archive = readZip(source);
    return isNpz(archive) ? readNpz(source, archive) : readTorchZip(source, archive);
  }
  if (source.size > TENSOR_FILE_LIMITS.maxWholeFileBytes) {
    throw new TensorFileError(
      "",
      `is ${source.size} bytes, above the limit of ${TENSOR_FILE_LIMITS.maxWholeFileBytes} for a file that is not a zip archive (re-save it with torch.save's default zip format)`,
      name,
    );
  }
  const bytes = source.read(0, source.size);
  if (isLegacyTorch(bytes)) return readTorchLegacy(bytes, name);
  if (isSafetensors(bytes)) return readSafetensors(bytes, name);
  const shown = Array.from(head, (b) => b.toString(16).padStart(2, "0")).join(" ");
  throw new TensorFileError(
    "byte 0",
    `not a torch .pt (zip or legacy), .npz or .safetensors file (it starts with ${shown || "nothing: the file is empty"})`,
    name,
  );
}
