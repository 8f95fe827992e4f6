import type { PlaygroundRow, PlaygroundState } from "../../../io/playgroundState";
import type { PlaygroundResult } from "../compute/playgroundRun";
import type { StateCodec } from "../compute/stateCodec";
import { Menu } from "../Menu";
import type { ChartRefs } from "../PlaygroundToolbar";
import { download } from "./download";

export interface ExportMenuProps {
  state: PlaygroundState;
  rows: PlaygroundRow[];
  result: PlaygroundResult | null;
  codec: StateCodec;
  charts: ChartRefs;
  onError(message: string | null): void;
  onStatus(message: string): void;
}

/** Case file, CSV, PNGs and a pytest snippet of what is on screen. */
export function ExportMenu({ state, codec, charts, onError, onStatus }: ExportMenuProps) {
  const run = (what: string, action: () => Promise<void>, close: () => void) => {
    close();
    action()
      .then(() => onError(null))
      .catch((reason: unknown) => onError(`${what}: ${reason instanceof Error ? reason.message : String(reason)}`));
  };
  const png = (handle: { toPng(): Promise<Blob> } | null, fileName: string) => async () => {
    if (!handle) throw new Error("nothing is drawn yet");
    download(await handle.toPng(), fileName);
    onStatus(`Saved ${fileName}`);
  };
  return (
    <Menu label="Export" title="Save what is on screen" testId="export-menu">
      {(close) => (
        <ul className="export-items">
          <li>
            <button
              type="button"
              data-testid="export-case"
              onClick={() =>
                run(
                  "Case export",
                  async () => {
                    const answer = await codec.caseFile(state);
                    if (!answer.ok) throw new Error(answer.message);
                    download(new Blob([answer.text], { type: "application/json" }), answer.fileName);
                    onStatus(`Saved ${answer.fileName}: check it with npx scanlab check ${answer.fileName}`);
                  },
                  close,
                )
              }
            >
              Case file (.json)
            </button>
            <span className="caption">the golden schema: npx scanlab check verifies it</span>
          </li>
          <li>
            <button
              type="button"
              data-testid="export-png-returns"
              onClick={() => run("PNG export", png(charts.returns.current, "scanlab_returns.png"), close)}
            >
              Returns chart (.png)
            </button>
          </li>
          <li>
            <button
              type="button"
              data-testid="export-png-error"
              onClick={() => run("PNG export", png(charts.error.current, "scanlab_error.png"), close)}
            >
              Error chart (.png)
            </button>
          </li>
          <li>
            <button
              type="button"
              data-testid="export-png-heatmap"
              onClick={() => run("PNG export", png(charts.heatmap.current, "scanlab_heatmap.png"), close)}
            >
              Heatmap (.png)
            </button>
          </li>
        </ul>
      )}
    </Menu>
  );
}
