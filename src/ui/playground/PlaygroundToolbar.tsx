import { memo, type RefObject, useState } from "react";
import {
  INTO_CHOICES,
  INTO_LABELS,
  LANE_CHOICES,
  type LaneTarget,
  laneChoiceLabel,
} from "../../compute/playground/importFile";
import type { PlaygroundResult } from "../../compute/playground/playgroundRun";
import type { StateCodec } from "../../compute/playground/stateCodec";
import type { PlaygroundRow, PlaygroundState } from "../../io/playgroundState";
import { EXAMPLES } from "../../io/presets";
import type { ChartHandle } from "../charts/chartPng";
import type { HeatmapHandle } from "../heatmap/ErrorHeatmap";
import { OptionSelect } from "../OptionSelect";
import { ToolbarButton } from "../ToolbarButton";
import { ExportMenu } from "./files/ExportMenu";
import { Menu } from "./Menu";

export interface ChartRefs {
  returns: RefObject<ChartHandle | null>;
  error: RefObject<ChartHandle | null>;
  heatmap: RefObject<HeatmapHandle | null>;
}

export interface PlaygroundToolbarProps {
  state: PlaygroundState;
  rows: PlaygroundRow[];
  hasResult: boolean;
  /** The result on screen, read when an export asks for it (stable). */
  shownResult(): PlaygroundResult | null;
  target: LaneTarget;
  onTarget(target: LaneTarget): void;
  onFile(file: File): void;
  onLoad(state: PlaygroundState): void;
  onReset(): void;
  onCopyLink(): void;
  /** Opens the same inputs and settings in the step-by-step player. */
  onOpenInPlayer(): void;
  linkStatus: LinkStatus | null;
  /** Saves the batch as a case file (offered beside a link too long to paste). */
  onSaveCase(): void;
  onError(message: string | null): void;
  onStatus(message: string): void;
  codec: StateCodec;
  charts: ChartRefs;
}

/** What became of the last link or export; `offerCase` puts a case-file button beside it. */
export interface LinkStatus {
  text: string;
  offerCase: boolean;
}

/** The playground's actions in the top bar: examples, import, export, share, reset. */
export const PlaygroundToolbar = memo(function PlaygroundToolbar(props: PlaygroundToolbarProps) {
  const { target, onTarget } = props;
  const [dragging, setDragging] = useState(false);
  return (
    <div className="pg-toolbar">
      <Menu label="Examples" title="Built-in examples, several from real bug reports" testId="examples-menu">
        {(close) => (
          <ul className="examples">
            {EXAMPLES.map((example) => (
              <li key={example.id}>
                <button
                  type="button"
                  data-testid={`example-${example.id}`}
                  onClick={() => {
                    props.onLoad(example.state);
                    close();
                  }}
                >
                  {example.title}
                </button>
                <p className="caption">{example.caption}</p>
                {example.link ? (
                  <a href={example.link.url} target="_blank" rel="noreferrer noopener" className="report-link">
                    {example.link.label} ↗
                  </a>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Menu>
      <Menu label="Import" title="A case file, a CSV or a .npy array" testId="import-menu">
        {(close) => (
          <div className="import-panel">
            <section
              className={`drop-zone${dragging ? " dragging" : ""}`}
              aria-label="Drop a file here"
              onDragOver={(event) => {
                event.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={(event) => {
                event.preventDefault();
                setDragging(false);
                const file = event.dataTransfer.files[0];
                if (file) {
                  props.onFile(file);
                  close();
                }
              }}
            >
              <p>
                Drop a case file (.json), a CSV (rows × tokens) or a .npy array (1-D or 2-D, float32 or float64) here,
                or
              </p>
              <input
                type="file"
                accept=".json,.csv,.tsv,.txt,.npy,application/json,text/csv"
                data-testid="case-file-input"
                aria-label="Choose a file to import"
                onChange={(event) => {
                  const file = event.currentTarget.files?.[0];
                  event.currentTarget.value = "";
                  if (file) {
                    props.onFile(file);
                    close();
                  }
                }}
              />
            </section>
            <fieldset className="lane-target">
              <legend>CSV and .npy numbers go into</legend>
              <label>
                lane{" "}
                <OptionSelect
                  options={LANE_CHOICES}
                  value={target.lane}
                  optionLabel={(lane) => laneChoiceLabel(lane, props.state)}
                  testId="import-lane"
                  onChoose={(lane) => onTarget({ ...target, lane })}
                />
              </label>
              <label>
                of{" "}
                <OptionSelect
                  options={INTO_CHOICES}
                  value={target.into}
                  optionLabel={(into) => INTO_LABELS[into]}
                  testId="import-into"
                  onChoose={(into) => onTarget({ ...target, into })}
                />
              </label>
            </fieldset>
          </div>
        )}
      </Menu>
      <ExportMenu
        state={props.state}
        rows={props.rows}
        hasResult={props.hasResult}
        shownResult={props.shownResult}
        codec={props.codec}
        charts={props.charts}
        onError={props.onError}
        onStatus={props.onStatus}
        onCopyLink={props.onCopyLink}
      />
      <ToolbarButton
        onClick={props.onOpenInPlayer}
        testId="open-in-player"
        title="Watch the chunked scan of these inputs step by step in the player"
      >
        Open in player
      </ToolbarButton>
      <ToolbarButton onClick={props.onCopyLink} testId="copy-link" title="Copy a link that reopens this exact view">
        Copy link
      </ToolbarButton>
      <ToolbarButton
        onClick={props.onReset}
        testId="reset"
        title="Back to the built-in first example (undo brings your work back)"
      >
        Reset
      </ToolbarButton>
      {props.linkStatus ? (
        <span className="link-status" role="status" data-testid="link-status">
          {props.linkStatus.text}
          {props.linkStatus.offerCase ? (
            <button type="button" className="link-case" data-testid="link-save-case" onClick={props.onSaveCase}>
              Save case file
            </button>
          ) : null}
        </span>
      ) : null}
    </div>
  );
});
