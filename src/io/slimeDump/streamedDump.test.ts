import { describe, expect, it, vi } from "vitest";
import { writePpoTrainDump } from "../../testing/ppoTrainDump";
import { MemorySink } from "../../testing/storedZipWriter";
import { IoError } from "../ioError";
import { bytesSource, freshBytesSource } from "../tensorFiles/byteSource";
import { checkDump } from "./checkDump";
import { fixtureBytes } from "./dumpFixtures";
import { DUMP_TOKEN_FIELDS, type UnderstoodDump } from "./dumpTypes";
import { openDump } from "./openDump";
import { replayInWindows } from "./replayDump";
import { FieldCache } from "./streamedFields";

/**
 * A streamed dump (openDump's `streamed`: long fields read from the file on each pass) against the
 * same file read whole: the same samples, the same check to the last figure, and the same refusals.
 */
function opened(bytes: Uint8Array, streamed: boolean, streamMinTokens?: number): UnderstoodDump {
  const source = streamed ? freshBytesSource(bytes, "dump.pt") : bytesSource(bytes, "dump.pt");
  const result = openDump(source, { streamed, streamMinTokens });
  if (!result.ok) throw new Error(result.error.message);
  return result.value.dump;
}

/** Everything a report shows of a check, the replay's per-sample rows included (recomputed when read). */
function checkText(dump: UnderstoodDump): string {
  replayInWindows(dump);
  const check = checkDump(dump, {});
  return JSON.stringify(check, (_, v) => (ArrayBuffer.isView(v) ? Array.from(v as Float64Array) : v));
}

async function ppoBytes(): Promise<Uint8Array> {
  const sink = new MemorySink();
  const params = { samples: 6, promptLength: 32, responseMin: 1030, responseMax: 2600, entropy: true, seed: 28 };
  await writePpoTrainDump(sink, params, "ppo");
  return sink.bytes();
}

describe("a streamed dump reads as the same dump read whole", () => {
  it("a ppo dump of 1,030–2,600 tokens: every field, then the whole check, identical", async () => {
    const bytes = await ppoBytes();
    const whole = opened(bytes, false);
    const streamed = opened(bytes, true);
    // The long fields are accessors read from the file, not values held with the dump.
    expect(Object.getOwnPropertyDescriptor(streamed.samples[0], "advantages")?.get).toBeDefined();
    expect(Object.getOwnPropertyDescriptor(whole.samples[0], "advantages")?.get).toBeUndefined();
    for (let i = 0; i < whole.samples.length; i++) {
      for (const field of DUMP_TOKEN_FIELDS) {
        const a = whole.samples[i][field];
        const b = streamed.samples[i][field];
        expect(b?.constructor, `${field} of sample ${i}`).toBe(a?.constructor);
        expect(b && Array.from(b), `${field} of sample ${i}`).toEqual(a && Array.from(a));
      }
    }
    expect(checkText(streamed)).toBe(checkText(whole));
  });

  it.each(["generated/rpp_norm_g1_kl002_k2.pt", "generated/cp4_ppo_g1_l095_kl002_k1.pt", "generated/grpo_kl0.pt"])(
    "%s, every field streamed: the same check",
    (file) => {
      const bytes = fixtureBytes(file);
      expect(checkText(opened(bytes, true, 1))).toBe(checkText(opened(bytes, false)));
    },
  );

  it("the check reads a field from the file only for its numbers: a length or a presence reads nothing", async () => {
    // Normalised ppo, every field streamed and only the field read last kept: each field asked for is a read.
    const bytes = await ppoBytes();
    const result = openDump(freshBytesSource(bytes, "dump.pt"), { streamed: true, streamMinTokens: 1, keptBytes: 0 });
    if (!result.ok) throw new Error(result.error.message);
    const dump = result.value.dump;
    const load = vi.spyOn(FieldCache.prototype, "load");
    try {
      replayInWindows(dump);
      expect(checkDump(dump, {}).passed).toBe(true);
      // Reads per sample by field slot (streamedFields' FIELD_SLOTS: 1 loss mask, 5 values, 7 kl, 8 advantages, 9 returns).
      const perSample = new Map<number, number>();
      for (const [, k] of load.mock.calls) perSample.set(k, (perSample.get(k) ?? 0) + 1);
      for (const [k, reads] of perSample) perSample.set(k, reads / dump.samples.length);
      // The whitening's fit reads returns − values and the stored advantages, never the mask or the KL for
      // their lengths; its refit is skipped where it would add the same numbers, and its sums and stray
      // marks are made in the settings read's passes over the same rows. Counted with nothing kept (a field
      // read twice in one visit counts twice), main read the mask 47 times a sample, the KL 22.5, the
      // advantages 16, the values 21, 140 fields in all; now 8, 6, 6, 14 and 59.5.
      expect(perSample.get(1)).toBeLessThanOrEqual(8);
      expect(perSample.get(7)).toBeLessThanOrEqual(6);
      expect(perSample.get(8)).toBeLessThanOrEqual(6);
      expect(perSample.get(5)).toBeLessThanOrEqual(14);
      expect(load.mock.calls.length / dump.samples.length).toBeLessThanOrEqual(60);
    } finally {
      load.mockRestore();
    }
  });

  it("a loss mask of 2 is refused at open, naming the field, as the whole read refuses it", async () => {
    const bytes = await ppoBytes();
    // The first sample's loss_masks record: int32 ones; one of them made 2.
    const whole = openDump(bytesSource(bytes, "dump.pt"));
    expect(whole.ok).toBe(true);
    const at = findInt32Run(bytes, 1, 1030);
    const bad = bytes.slice();
    new DataView(bad.buffer).setInt32(at + 4 * 7, 2, true);
    const a = openDump(bytesSource(bad, "dump.pt"));
    const b = openDump(freshBytesSource(bad, "dump.pt"), { streamed: true });
    expect(a.ok).toBe(false);
    expect(b.ok).toBe(false);
    if (a.ok || b.ok) return;
    expect(b.error.message).toBe(a.error.message);
    expect(b.error.where).toMatch(/^field samples\[\d+\]\.loss_masks$/);
  });

  it("a file that ends after it was opened: the late read names the field, never an internal error", async () => {
    const bytes = await ppoBytes();
    const source = freshBytesSource(bytes, "dump.pt");
    const result = openDump(source, { streamed: true });
    if (!result.ok) throw new Error(result.error.message);
    source.swap(bytes.subarray(0, 4096));
    const dump = result.value.dump;
    let thrown: unknown = null;
    try {
      for (const s of dump.samples) for (const field of DUMP_TOKEN_FIELDS) void s[field]?.length;
    } catch (error) {
      thrown = error;
    }
    // A located refusal (the record or the field, and why), the kind the CLI prints as one line.
    expect(thrown).toBeInstanceOf(IoError);
    expect((thrown as IoError).message).toMatch(/^dump\.pt: (record|field) /);
  });
});

/** The byte offset of the first run of `count` little-endian int32 `value`s. */
function findInt32Run(bytes: Uint8Array, value: number, count: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at + 4 * count <= bytes.length; at += 4) {
    let run = 0;
    while (run < count && view.getInt32(at + 4 * run, true) === value) run++;
    if (run === count) return at;
  }
  throw new Error("no such run");
}
