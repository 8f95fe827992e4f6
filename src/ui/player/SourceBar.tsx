import { PLAYER_EXAMPLES, type PlayerSource, playableCases } from "../../compute/player/source";
import type { CaseFile } from "../../io/caseSchema";
import { OptionSelect } from "../OptionSelect";

export interface SourceBarProps {
  source: PlayerSource;
  label?: string;
  rows: number;
  focusRow: number;
  running: boolean;
  onExample(id: string): void;
  onFile(file: File): void;
  onCase(file: CaseFile, fileName: string, index: number): void;
  onFocusRow(row: number): void;
}

/** What the player shows: an example, a case file (and which case), and the focus row. */
export function SourceBar(p: SourceBarProps) {
  const { source } = p;
  const exampleId = source.kind === "state" ? PLAYER_EXAMPLES.find((e) => e.label === source.label)?.id : undefined;
  const cases = source.kind === "case" ? playableCases(source.file) : [];
  return (
    <div className="player-source">
      <label data-control="example">
        Example{" "}
        <select
          value={exampleId ?? ""}
          onChange={(e) => {
            if (e.currentTarget.value) p.onExample(e.currentTarget.value);
          }}
        >
          {exampleId === undefined ? (
            <option value="">
              {source.kind === "case" ? "(case file)" : source.origin ? "(edited here)" : "(from the playground)"}
            </option>
          ) : null}
          {PLAYER_EXAMPLES.map((example) => (
            <option key={example.id} value={example.id}>
              {example.label}
            </option>
          ))}
        </select>
      </label>
      <label className="file-label" data-control="case-file">
        Case file{" "}
        <input
          type="file"
          accept=".json,application/json"
          data-testid="case-file-input"
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            if (file) p.onFile(file);
            e.currentTarget.value = "";
          }}
        />
      </label>
      {source.kind === "case" && cases.length > 1 ? (
        <label>
          Case{" "}
          <OptionSelect
            options={cases.map(({ index }) => index)}
            value={source.index}
            optionLabel={(index) => `${source.file.cases[index].name} (${source.file.cases[index].kind})`}
            testId="player-case-select"
            onChoose={(index) => p.onCase(source.file, source.fileName, index)}
          />
        </label>
      ) : null}
      {p.rows > 1 ? (
        <label data-control="focus-row">
          Focus row{" "}
          <OptionSelect
            options={Array.from({ length: p.rows }, (_, b) => b)}
            value={p.focusRow}
            optionLabel={(b) => `row ${b}`}
            onChoose={p.onFocusRow}
          />
        </label>
      ) : null}
      <span className="source-label" data-testid="player-source">
        {p.running ? "Running on the engine… " : ""}
        {p.label}
      </span>
    </div>
  );
}
