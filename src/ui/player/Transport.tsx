import { SPEEDS } from "../../compute/player/playback";
import type { TimeView } from "../../compute/player/stageLayout";
import type { PlayerTrace } from "../../compute/player/trace";
import { Term } from "../glossary/Term";
import { OptionSelect } from "../OptionSelect";
import { ToolbarButton } from "../ToolbarButton";

export interface TransportProps {
  trace: PlayerTrace;
  cursor: number;
  playing: boolean;
  speed: number;
  view: TimeView;
  /** The tour points at the transport bar. */
  spotlight: boolean;
  onPlay(): void;
  onPause(): void;
  onStep(delta: 1 | -1): void;
  onSection(delta: 1 | -1): void;
  /** From the scrubber (which pauses playback). */
  onSeek(cursor: number): void;
  onSpeed(speed: number): void;
  onView(view: TimeView): void;
  onTour(): void;
  onShortcuts(): void;
}

/** The full-width transport bar: play, step, phase jumps, the scrubber with phase ticks, speed, view. */
export function Transport(p: TransportProps) {
  const { trace, cursor, playing } = p;
  const last = trace.steps.length - 1;
  const atEnd = cursor >= last;
  const move = (
    label: string,
    shortcut: string,
    control: string,
    face: string,
    onClick: () => void,
    disabled: boolean,
  ) => (
    <ToolbarButton label={label} shortcut={shortcut} control={control} onClick={onClick} disabled={disabled}>
      {face}
    </ToolbarButton>
  );
  return (
    <div className={`transport${p.spotlight ? " spotlight" : ""}`} data-region="transport">
      <div className="transport-buttons">
        {move("Previous phase", "Shift+←", "previous-phase", "◂◂", () => p.onSection(-1), cursor === 0)}
        {move("Step back", "←", "step-back", "◂", () => p.onStep(-1), cursor === 0)}
        {playing ? (
          <ToolbarButton className="play" title="Pause" shortcut="Space" control="play" onClick={p.onPause}>
            <span aria-hidden="true">❚❚</span> Pause
          </ToolbarButton>
        ) : (
          <ToolbarButton className="play" title="Play" shortcut="Space" control="play" onClick={p.onPlay}>
            {/* The name is the visible word, so speech control ("click Replay") finds the button. */}
            <span aria-hidden="true">▶</span> {atEnd ? "Replay" : "Play"}
          </ToolbarButton>
        )}
        {move("Step forward", "→", "step-forward", "▸", () => p.onStep(1), atEnd)}
        {move("Next phase", "Shift+→", "next-phase", "▸▸", () => p.onSection(1), atEnd)}
      </div>
      <div className="scrubber" data-region="scrubber">
        <input
          type="range"
          min={0}
          max={last}
          step={1}
          value={cursor}
          aria-label="Step"
          aria-valuetext={`step ${cursor + 1} of ${last + 1}`}
          data-control="scrubber"
          data-testid="player-scrubber"
          onChange={(e) => p.onSeek(Number(e.currentTarget.value))}
        />
        <div className="phase-ticks" aria-hidden="true">
          {trace.phases.map((phase) => (
            <span
              key={phase.id}
              // A label in the right half reads leftwards from its tick, so it never runs past the bar.
              className={`phase-tick${cursor >= phase.first && cursor <= phase.last ? " current" : ""}${phase.first > last / 2 ? " end" : ""}`}
              style={{ left: `${last === 0 ? 0 : (phase.first / last) * 100}%` }}
              title={phase.label}
            >
              <i />
              <em>{phase.label}</em>
            </span>
          ))}
        </div>
      </div>
      <span className="position" data-testid="player-position">
        {cursor + 1} / {last + 1}
      </span>
      <label className="speed" data-control="speed">
        <OptionSelect
          options={SPEEDS}
          value={p.speed}
          optionLabel={(s) => `${s} step${s === 1 ? "" : "s"}/s`}
          onChoose={p.onSpeed}
          aria-label="Speed"
        />
      </label>
      <label className="time-toggle" data-region="time-toggle" data-control="time-toggle">
        <input
          type="checkbox"
          checked={p.view === "reversed"}
          onChange={(e) => p.onView(e.currentTarget.checked ? "reversed" : "original")}
        />{" "}
        Reversed time
      </label>
      <Term word="Reversed time" />
      <ToolbarButton control="tour" onClick={p.onTour}>
        Tour
      </ToolbarButton>
      <ToolbarButton label="Keyboard shortcuts" shortcut="?" control="shortcuts" onClick={p.onShortcuts}>
        ?
      </ToolbarButton>
    </div>
  );
}
