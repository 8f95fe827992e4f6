import type { StateCodec } from "../../../compute/playground/stateCodec";
import type { PlaygroundState } from "../../../io/playgroundState";
import { download } from "./download";

/** Writes the state as a golden-schema case file (in the codec worker) and saves it; returns the status line. */
export async function saveCaseFile(codec: StateCodec, state: PlaygroundState): Promise<string> {
  const answer = await codec.caseFile(state);
  if (!answer.ok) throw new Error(answer.message);
  download(new Blob([answer.text], { type: "application/json" }), answer.fileName);
  return `Saved ${answer.fileName}: check it with npx scanlab check ${answer.fileName}`;
}
