import { useCallback, useState } from "react";
import type { CaseImport } from "../../../io/caseImport";
import type { ScanCase } from "../../../io/caseSchema";
import { checkFileSize } from "../../../io/ioError";
import type { PlaygroundRow, PlaygroundState } from "../../../io/playgroundState";
import { importFile, type LaneTarget } from "./importFile";
import { openAnyCase } from "./openCase";

/** A case file that is open: its cases, the one shown, and the state it opened as (for its verdict). */
export interface OpenCaseFile {
  fileName: string;
  imported: CaseImport;
  index: number;
  case: ScanCase;
  /** The state the case opened as: a figure is judged against the case only while this is computed. */
  opened: PlaygroundState;
}

export interface ImportControls {
  target: LaneTarget;
  setTarget(target: LaneTarget): void;
  caseFile: OpenCaseFile | null;
  onFile(file: File): void;
  openCaseAt(index: number): void;
  closeCaseFile(): void;
  /** Messages about the last import that are not errors (a float64 array rounded to float32). */
  notes: string[];
}

/**
 * Reading files into the playground. Nothing changes until a file is fully read and valid: a bad
 * file reports its problem through `onError` and leaves the state, the drawing and the result alone.
 */
export function useImport(
  current: () => { state: PlaygroundState; rows: PlaygroundRow[] },
  load: (state: PlaygroundState) => void,
  onError: (message: string | null) => void,
): ImportControls {
  const [target, setTarget] = useState<LaneTarget>({ lane: "auto", into: "new" });
  const [caseFile, setCaseFile] = useState<OpenCaseFile | null>(null);
  const [notes, setNotes] = useState<string[]>([]);

  const onFile = useCallback(
    (file: File) => {
      const tooBig = checkFileSize(file.size, file.name);
      if (tooBig) {
        onError(tooBig.message);
        return;
      }
      file
        .arrayBuffer()
        .then((buffer) => {
          const { state, rows } = current();
          const result = importFile(file.name, new Uint8Array(buffer), state, rows, target);
          if (!result.ok) {
            onError(result.error.message);
            return;
          }
          onError(null);
          setNotes(result.notes);
          const value = result.value;
          if (value.kind === "cases") {
            setCaseFile({
              fileName: file.name,
              imported: value.imported,
              index: 0,
              case: value.opened.case,
              opened: value.opened.state,
            });
            load(value.opened.state);
          } else {
            setCaseFile(null);
            load(value.state);
          }
        })
        .catch((reason: unknown) => onError(`${file.name}: could not be read (${String(reason)})`));
    },
    [current, load, onError, target],
  );

  const openCaseAt = useCallback(
    (index: number) => {
      if (!caseFile) return;
      const opened = openAnyCase(caseFile.imported, index, current().state, caseFile.fileName);
      if (!opened.ok) {
        onError(opened.error.message);
        return;
      }
      onError(null);
      setNotes(opened.notes);
      setCaseFile({ ...caseFile, index, case: opened.value.case, opened: opened.value.state });
      load(opened.value.state);
    },
    [caseFile, current, load, onError],
  );

  const closeCaseFile = useCallback(() => setCaseFile(null), []);
  return { target, setTarget, caseFile, onFile, openCaseAt, closeCaseFile, notes };
}
