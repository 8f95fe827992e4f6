/**
 * Limits of what the playground accepts (links, storage, imports), so a hostile link or file
 * cannot make the page allocate without bound: at most MAX_ROWS rows, MAX_TOKENS tokens in a
 * row and MAX_CELLS cells in the padded `[B, max length]` batch.
 */
export const MAX_ROWS = 1024;
export const MAX_TOKENS = 65536;
// 2^22 cells holds 64 × 65536, the largest conformance batch; at float64 that is 32 MiB per array.
export const MAX_CELLS = 2 ** 22;
