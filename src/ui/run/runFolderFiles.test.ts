import { describe, expect, it } from "vitest";
import { filesFromInput, inRunFolders } from "./runFolderFiles";

const file = (path: string) => {
  const f = new File(["x"], path.split("/").pop() ?? path);
  Object.defineProperty(f, "webkitRelativePath", { value: path });
  return f;
};

describe("a run folder's files", () => {
  it("reads the folder's own files and its train_data/ and rollout_data/, names the rest", () => {
    expect(inRunFolders("run/3.pt")).toBe(true);
    expect(inRunFolders("run/train_data/3.pt")).toBe(true);
    expect(inRunFolders("run/rollout_data/3.pt")).toBe(true);
    expect(inRunFolders("run/ckpt/3.pt")).toBe(false);
    expect(inRunFolders("run/train_data/old/3.pt")).toBe(false);
    const read = filesFromInput([file("run/train_data/3.pt"), file("run/ckpt/3.pt"), file("run/README")]);
    expect(read.folder).toBe("run");
    expect(read.files.map((f) => f.name)).toEqual(["run/train_data/3.pt", "run/README"]);
    expect(read.unused).toEqual([
      { path: "run/ckpt/3.pt", why: "in a folder other than the run's train_data/ and rollout_data/: not read" },
    ]);
  });
});
