import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { InputTooLargeError, readBounded, readFileBounded } from "./readInput";

const dir = mkdtempSync(join(tmpdir(), "scanlab-read-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("reading a case file never grows without bound", () => {
  it("stops an endless stream as soon as it passes the limit, and closes it", async () => {
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled++;
        this.push(new Uint8Array(1024));
      },
    });
    await expect(readBounded(endless, 10_000)).rejects.toBeInstanceOf(InputTooLargeError);
    expect(pulled).toBeLessThan(40);
    expect(endless.destroyed).toBe(true);
  });

  it("returns every byte of input within the limit, in order", async () => {
    const parts = [Uint8Array.of(1, 2), Uint8Array.of(3), "é"];
    expect(Array.from(await readBounded(Readable.from(parts), 5))).toEqual([1, 2, 3, 0xc3, 0xa9]);
    await expect(readBounded(Readable.from(parts), 4)).rejects.toBeInstanceOf(InputTooLargeError);
  });

  it("refuses a file above the limit from its size, before reading it", async () => {
    const big = join(dir, "big.json");
    writeFileSync(big, "");
    truncateSync(big, 300 * 2 ** 20); // sparse: no disk used
    const error = await readFileBounded(big, 256 * 2 ** 20).catch((e) => e);
    expect(error).toBeInstanceOf(InputTooLargeError);
    expect(error.size).toBe(300 * 2 ** 20);
    await expect(readFileBounded(dir, 100)).rejects.toThrow("it is a directory");
    const small = join(dir, "small.json");
    writeFileSync(small, "{}");
    expect(new TextDecoder().decode(await readFileBounded(small, 2))).toBe("{}");
  });
});
