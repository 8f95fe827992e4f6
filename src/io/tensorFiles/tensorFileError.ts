import { IoError } from "../ioError";

/**
 * A refusal inside a tensor file, thrown by the readers and turned into an IoResult at the entry
 * point (readTensorFile). `where` names the place: `byte 1234`, `record train/data/7`,
 * `record train/data.pkl, byte 88`, `tensor samples[3].advantages`.
 */
export class TensorFileError extends IoError {
  override name = "TensorFileError";
}

/** A place in a named record of an archive, or in the file itself when the record is "". */
export function at(record: string, byte?: number): string {
  const inRecord = record === "" ? "" : `record ${record}`;
  const inByte = byte === undefined ? "" : `byte ${byte}`;
  return [inRecord, inByte].filter(Boolean).join(", ");
}
