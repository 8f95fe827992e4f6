/**
 * What the tensor-file readers accept at most. A dump's header can claim anything (a 2 GB
 * storage in a 2 KB file); every claim is checked against these and against the bytes actually
 * present before anything is allocated, so a hostile file costs at most its own size.
 */
export const TENSOR_FILE_LIMITS = {
  /**
   * Largest file read whole: a legacy torch file, a .safetensors or an .npz (formats a dump is
   * rarely written in). A torch zip file is read by random access and has no size limit but the
   * format's (ZIP64) and 2^53.
   */
  maxWholeFileBytes: 256 * 2 ** 20,
  /**
   * Bytes a zip archive's deflated records may inflate to, all of them together, checked from the
   * central directory before anything is inflated. Deflate expands up to 1032:1, so a 1 MB record
   * can honestly hold 1 GiB of zeros: a stored record costs the file's own size, a deflated one
   * costs what it states. No torch writer deflates a record; numpy's `savez_compressed` does.
   */
  maxInflatedBytes: 256 * 2 ** 20,
  /** Records in one zip archive (a train dump of 64 samples has a few hundred). */
  maxZipEntries: 2 ** 21,
  /** Elements of one tensor or storage. */
  maxElements: 2 ** 27,
  /**
   * Elements a file's tensors may claim beyond what its storages hold. Views of one storage
   * (`x[1:]`, `x.t()`) cost at most the storage; views that repeat elements (stride 0, overlap)
   * would make a small file cost gigabytes, so they may add only this many. A zero-size tensor is
   * charged its other dimensions (shapeClaim): `[1e8, 0]` holds nothing but makes 1e8 rows.
   */
  viewAllowance: 2 ** 20,
  /**
   * How often a torch file's views may claim each stored element, before the allowance above.
   * slime's own dumps view some elements twice: each sample's `advantages` and `returns` are two
   * views of one storage in GRPO, GSPO and CISPO steps and in unwhitened REINFORCE++ ones (a real
   * 1,024-sample GRPO step repeats a million tokens). A third view of the same elements costs its
   * reader more than the file's own size, so it must fit in the allowance.
   */
  viewsPerElement: 2,
  /** Dimensions of one tensor. */
  maxDims: 8,
  /**
   * Pickle opcodes executed. Each reads at least its own byte, so the pickle's length bounds them as
   * well: a dump's pickle runs about a hundred per sample (150,000 samples: 40 MB, 16 M opcodes).
   */
  maxPickleOps: 2 ** 27,
  /** Depth of the pickle's stack of marks and of nested containers. */
  maxNesting: 256,
  /** Memo entries (BINPUT slots): torch memoises every string, global and tuple, about 30 per sample. */
  maxMemo: 2 ** 24,
  /** Items one list, dict or tuple may hold. */
  maxContainerItems: 2 ** 24,
  /** Length of one pickled string. */
  maxStringBytes: 64 * 2 ** 20,
  /** Length of a safetensors JSON header (the format itself caps it at 100 MB; a dump's is a few KB). */
  maxHeaderBytes: 16 * 2 ** 20,
} as const;

/**
 * What a shape costs to hold: its element count, or for a zero-size tensor the product of its
 * non-zero dimensions (the rows a reader of `[1e8, 0]` would make), whichever is larger.
 */
export function shapeClaim(shape: readonly number[]): number {
  let claim = 1;
  for (const d of shape) claim *= Math.max(d, 1);
  return claim;
}
