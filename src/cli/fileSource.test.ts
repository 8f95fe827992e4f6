import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openFileSource } from "./fileSource";

/**
 * What `scanlab dump PATH` opens (issue 28, an outside probe's hostile files): a regular file, read
 * by position; a named pipe in a run folder waited for a writer forever, and `/dev/zero` was read
 * as an empty file.
 */
describe("openFileSource", () => {
  const dir = mkdtempSync(join(tmpdir(), "scanlab-filesource-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads a regular file by position", () => {
    const path = join(dir, "a.pt");
    writeFileSync(path, new Uint8Array([1, 2, 3, 4]));
    const source = openFileSource(path, "a.pt");
    expect(source.size).toBe(4);
    expect(Array.from(source.read(1, 2))).toEqual([2, 3]);
    source.close();
  });

  it("refuses a named pipe with no writer at once, instead of waiting for one", () => {
    const path = join(dir, "3.pt");
    execFileSync("mkfifo", [path]);
    expect(() => openFileSource(path, "3.pt")).toThrow(/not a regular file \(a pipe, socket or device\)/);
  });

  it("refuses a device, which has no size to read by position", () => {
    expect(() => openFileSource("/dev/zero", "zero")).toThrow(/not a regular file/);
  });

  it("refuses a directory", () => {
    expect(() => openFileSource(dir, "dir")).toThrow("it is a directory");
  });
});
