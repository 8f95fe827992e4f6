import { fixtureBytes } from "../io/slimeDump/dumpFixtures";
import type { UnderstoodDump } from "../io/slimeDump/dumpTypes";
import { understandDump } from "../io/slimeDump/understandDump";
import { bytesSource } from "../io/tensorFiles/byteSource";
import { readTensorFile } from "../io/tensorFiles/readTensorFile";
import { isDict, isTensor } from "../io/tensorFiles/tensorTypes";
import { readZip } from "../io/tensorFiles/zipArchive";

/**
 * Test support: a train dump with one stored value changed in its bytes, so that the CLI reads the
 * tampered file as it reads any dump. Only torch-zip files (what --save-debug-train-data writes)
 * with a float32 tensor stored uncompressed; anything else throws, never tampers elsewhere.
 */
export type StoredField = "advantages" | "returns" | "kl";

/** Opens a dump from bytes, throwing with the reader's message (tests only). */
export function openDumpBytes(bytes: Uint8Array, name = "dump.pt"): UnderstoodDump {
  const file = readTensorFile(bytes, name);
  if (!file.ok) throw new Error(file.error.message);
  const dump = understandDump(file.value.root, name);
  if (!dump.ok) throw new Error(dump.error.message);
  return dump.value;
}

/** A committed dump fixture (cases/dumps), opened under its file name as the run view would (tests only). */
export function openFixtureDump(path: string): UnderstoodDump {
  return openDumpBytes(fixtureBytes(path), path.split("/").pop());
}

/**
 * A copy of `bytes` where `samples[k][field][token]` is `value` (as float32), k being the file
 * sample that the understood dump lists as `sample` (a train dump is sorted by rollout position).
 * Checked by reading the copy back: that value changed, and nothing at another sample or token.
 */
export function tamperDump(
  bytes: Uint8Array,
  sample: number,
  field: StoredField,
  token: number,
  value: number,
): Uint8Array {
  const file = readTensorFile(bytes, "dump.pt");
  if (!file.ok) throw new Error(file.error.message);
  const root = file.value.root;
  const samples = isDict(root) ? root.get("samples") : undefined;
  if (!Array.isArray(samples)) throw new Error("not a train dump");
  const before = openDumpBytes(bytes);
  const position = before.samples[sample].rolloutPosition;
  const k = position === null ? sample : samples.findIndex((s) => isDict(s) && s.get("rollout_position") === position);
  const entry = samples[k];
  const tensor = isDict(entry) ? entry.get(field) : undefined;
  if (!isTensor(tensor) || tensor.storedDtype !== "float32")
    throw new Error(`samples[${k}].${field}: no float32 tensor`);
  const where = /^storage '(.+)', offset (\d+)$/.exec(tensor.origin);
  if (!where) throw new Error(`samples[${k}].${field}: origin ${tensor.origin} names no storage`);
  const archive = readZip(bytesSource(bytes, "dump.pt"));
  const record = [...archive.entries.values()].find((e) => e.name.endsWith(`/data/${where[1]}`));
  if (record?.method !== 0) throw new Error(`storage ${where[1]}: no stored (uncompressed) record`);
  const out = bytes.slice();
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const header = record.headerOffset;
  const data = header + 30 + view.getUint16(header + 26, true) + view.getUint16(header + 28, true);
  view.setFloat32(data + (Number(where[2]) + token) * 4, value, true);
  checkOneChange(before, openDumpBytes(out), sample, field, token);
  return out;
}

/**
 * slime may save one tensor as two fields (REINFORCE++ without normalisation stores the returns as
 * the advantages), and torch.save keeps them one storage: such a twin changes with the value, at
 * the same sample and token. Anything else changed is a tamper gone wrong.
 */
function checkOneChange(
  before: UnderstoodDump,
  after: UnderstoodDump,
  sample: number,
  field: StoredField,
  token: number,
) {
  let changed = false;
  before.samples.forEach((s, i) => {
    for (const f of ["advantages", "returns", "kl"] as const) {
      const b = after.samples[i][f];
      s[f]?.forEach((v, t) => {
        if (Object.is(v, b?.[t])) return;
        if (i !== sample || t !== token) throw new Error(`tampering changed samples[${i}].${f}[${t}] too`);
        if (f === field) changed = true;
      });
    }
  });
  if (!changed) throw new Error(`tampering left samples[${sample}].${field}[${token}] as it was`);
}
