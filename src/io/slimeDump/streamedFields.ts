import { type DumpOutputs, FIELD_LENGTHS, type FloatArray, type ReplaySample, type WithFieldLengths } from "../../core";
import { describeThrown, IoError } from "../ioError";
import { StorageView } from "../tensorFiles/storageView";
import type { PyDict } from "../tensorFiles/tensorTypes";
import type { DumpSample } from "./dumpTypes";
import { FieldReader } from "./fieldReaders";

const NO_FIELDS: PyDict = new Map();

/**
 * A streamed dump (openDump's `streamed`): a long sample's per-token fields are not held with the
 * dump but read from the file each time a pass over the samples asks for them (the settings read
 * off the numbers, the whitening's statistics, the verdicts, the report), and dropped once the
 * pass has moved on. Memory is then a window of samples, not the file: 1.5 GB of fields read in
 * about 60 MB. Every claim is checked when the dump is opened, as when it is read whole: each
 * field's shape and length, the loss mask's 0s and 1s and every int64 read once there; a later
 * read gives the same bytes, or, where the file changed or ended meanwhile, a refusal naming the
 * field.
 */

/** openDump's and understandDump's choice: a train dump's long fields streamed, and from how many tokens. */
export interface StreamOptions {
  streamed?: boolean;
  /** STREAM_MIN_TOKENS unless given (a test streams every field with 1). */
  streamMinTokens?: number;
  /** KEPT_BYTES unless given (a test keeps only the field read last with 0, so every pass reads the file). */
  keptBytes?: number;
}

/** Fields of fewer tokens are read at once: a short sample's few bytes cost less held than streamed. */
export const STREAM_MIN_TOKENS = 1024;

/** The fields read last, kept while they fit: a pass reads a sample's fields several times in a row. */
const KEPT_BYTES = 64 * 2 ** 20;

/** A streamed sample's fields as last read, by field number (undefined: not read, or dropped since). */
interface Slots {
  values: (FloatArray | undefined)[];
}

/**
 * The fields of one streamed dump read last, kept in their samples' slots while they fit in
 * KEPT_BYTES, the oldest dropped first: a field asked for again (a loop over a sample's tokens
 * reads `s.kl[t]` for every t) costs a property read, not a file read.
 */
export class FieldCache {
  /** `minTokens`: fields of fewer tokens are read at once (a test streams every field with 1). */
  constructor(
    readonly minTokens = STREAM_MIN_TOKENS,
    private readonly keptBytes = KEPT_BYTES,
  ) {}

  private queue: { slots: Slots; k: number; bytes: number }[] = [];
  private head = 0;
  private bytes = 0;

  load(slots: Slots, k: number, read: () => FloatArray): FloatArray {
    const value = read();
    slots.values[k] = value;
    this.queue.push({ slots, k, bytes: value.byteLength });
    this.bytes += value.byteLength;
    while (this.bytes > this.keptBytes && this.head < this.queue.length - 1) {
      const old = this.queue[this.head++];
      old.slots.values[old.k] = undefined;
      this.bytes -= old.bytes;
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return value;
  }
}

const FIELD_SLOTS: Partial<Record<keyof DumpSample, number>> = {
  lossMask: 1,
  logProbs: 2,
  refLogProbs: 3,
  rolloutLogProbs: 4,
  values: 5,
  entropy: 6,
  kl: 7,
  advantages: 8,
  returns: 9,
};

/**
 * How a streamed sample reads its field `key` of R tokens, checked now as FieldReader.tokens checks
 * it (and by `check`, the loss mask's 0s and 1s); null where it is read now instead: no cache, a
 * short field, a tensor not read by random access, or one whose shape FieldReader.tokens refuses.
 */
export function streamedField(
  f: FieldReader,
  key: string,
  R: number,
  cache: FieldCache | null,
  check?: (data: FloatArray) => void,
  narrow = false,
): (() => FloatArray) | null {
  const tensor = f.dict.get(key);
  if (cache === null || !(tensor instanceof StorageView) || R < cache.minTokens) return null;
  if (tensor.shape.length !== 1 || tensor.shape[0] !== R) return null;
  // Its own reader: the sample's dict (every tensor of the sample, the tree) is not kept with the field.
  const own = new FieldReader(f.source, f.path, NO_FIELDS);
  const read = () => own.asTokens(key, R, own.elementsAgain(key, tensor), narrow);
  // An int64 or a mask is read once now, so a refusal comes where the whole read gives it.
  if ((tensor.dtype !== "float32" && tensor.dtype !== "float64") || check) check?.(read());
  return () => {
    try {
      return read();
    } catch (error) {
      if (error instanceof IoError) throw error;
      return own.fail(
        key,
        `could not be read again (${describeThrown(error)}): did the file change or end while it was read?`,
      );
    }
  };
}

/** The streamed dumps' samples, with the cache their fields are read through and their slots. */
const streamedSamples = new WeakMap<DumpSample, { cache: FieldCache; slots: Slots }>();

/** Makes `sample`'s fields read through `cache` when they are asked for and not kept. */
export function streamFields(
  sample: DumpSample,
  cache: FieldCache,
  fields: [keyof DumpSample, () => FloatArray][],
): DumpSample {
  if (fields.length === 0) return sample;
  const slots: Slots = { values: [] };
  // Every streamed field holds the response's tokens (streamedField checked it): its length is known unread.
  const lengths: Record<string, number> = {};
  for (const [field] of fields) lengths[field] = sample.responseLength;
  knownLengths(sample, lengths);
  for (const [field, read] of fields) {
    const k = FIELD_SLOTS[field] as number;
    const get = () => slots.values[k] ?? cache.load(slots, k, read);
    Object.defineProperty(sample, field, { get, enumerable: true, configurable: true });
  }
  streamedSamples.set(sample, { cache, slots });
  return sample;
}

/** The sample with other fields set, its streamed fields still streamed (a spread would read them all). */
export function withFields(sample: DumpSample, changes: Partial<DumpSample>): DumpSample {
  const streamed = streamedSamples.get(sample);
  if (!streamed) return { ...sample, ...changes };
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(sample)) as DumpSample;
  Object.assign(copy, changes);
  streamedSamples.set(copy, streamed);
  return copy;
}

/**
 * A streamed sample as the core replay takes it (replayDump's replaySamples, the same keys in the
 * same order), its fields read when asked for; null for a sample read whole.
 */
export function streamedReplaySample(s: DumpSample): ReplaySample | null {
  const streamed = streamedSamples.get(s);
  if (!streamed) return null;
  const lengths = (s as WithFieldLengths)[FIELD_LENGTHS];
  return Object.defineProperties(
    {},
    {
      [FIELD_LENGTHS]: known(lengths),
      reward: plain(s.reward),
      lossMask: lazy(() => s.lossMask),
      totalLength: plain(s.totalLength ?? undefined),
      dataParallelRank: plain(s.dataParallelRank ?? undefined),
      logProbs: lazy(() => s.logProbs),
      refLogProbs: lazy(() => s.refLogProbs),
      rolloutLogProbs: lazy(() => s.rolloutLogProbs),
      kl: lazy(() => s.kl),
      values: lazy(() => s.values),
      rawReward: plain(s.rawReward ?? undefined),
      group: plain(s.group ?? undefined),
    },
  ) as ReplaySample;
}

/** A streamed sample's stored values, read when asked for. */
export function streamedOutputs(s: DumpSample): DumpOutputs | null {
  if (!streamedSamples.has(s)) return null;
  return Object.defineProperties({} as DumpOutputs, {
    [FIELD_LENGTHS]: known((s as WithFieldLengths)[FIELD_LENGTHS]),
    advantages: lazy(() => s.advantages ?? new Float64Array(0)),
    returns: lazy(() => s.returns ?? new Float64Array(0)),
    kl: lazy(() => s.kl),
  });
}

/** The streamed fields' lengths, said without reading them (core's FIELD_LENGTHS): kept off spreads and key lists. */
function known(lengths: Readonly<Record<string, number>> | undefined): PropertyDescriptor {
  return { value: lengths ?? {}, enumerable: false, configurable: true, writable: true };
}

function knownLengths(o: object, lengths: Readonly<Record<string, number>>): void {
  Object.defineProperty(o, FIELD_LENGTHS, known(lengths));
}

function plain(value: unknown): PropertyDescriptor {
  return { value, enumerable: true, configurable: true, writable: true };
}

function lazy(get: () => unknown): PropertyDescriptor {
  return { get, enumerable: true, configurable: true };
}
