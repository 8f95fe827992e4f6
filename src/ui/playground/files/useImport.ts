import { useCallback, useState } from "react";
import type { ImportChoice, LaneTarget } from "../../../compute/playground/importFile";
import { openAnyCase } from "../../../compute/playground/openCase";
import { unpackState } from "../../../compute/playground/packState";
import type { StateCodec } from "../../../compute/playground/stateCodec";
import type { CaseImport } from "../../../io/caseImport";
import type { ScanCase } from "../../../io/caseSchema";
import { checkFileSize } from "../../../io/ioError";
import type { PlaygroundRow, PlaygroundState } from "../../../io/playgroundState";

/** A case file that is open: its cases, the one shown, and the state it opened as (for its verdict). */
export interface OpenCaseFile {
  fileName: string;
  imported: CaseImport;
  index: number;
  case: ScanCase;
  /** The state the case opened as: a figure is judged against the case only while this is computed. */
  opened: PlaygroundState;
}

/** A file whose numbers could go to more than one place: the user picks, and it is read again. */
export interface ImportQuestion {
  text: string;
  choices: ImportChoice[];
  answer(target: LaneTarget): void;
  dismiss(): void;
}

export interface ImportControls {
  target: LaneTarget;
  setTarget(target: LaneTarget): void;
  caseFile: OpenCaseFile | null;
  onFile(file: File): void;
  openCaseAt(index: number): void;
  closeCaseFile(): void;
  /** Another state was loaded (an example, a reset): the last import's case bar, notes and question go. */
  forget(): void;
  /** What the last import read and where it put it, and anything it changed on the way (float64 rounded). */
  notes: string[];
  /** Where a file's numbers go, when that is for the user to say. */
  question: ImportQuestion | null;
  /** A file is being read (in the codec worker). */
  reading: string | null;
}

/**
 * Reading files into the playground, in the codec worker. Nothing changes until a file is fully read
 * and valid: a bad file reports its problem through `onError` and leaves the state, the drawing and
 * the result alone; a good one clears the last import's error.
 */
export function useImport(
  current: () => { state: PlaygroundState; rows: PlaygroundRow[] },
  load: (state: PlaygroundState) => void,
  onError: (message: string | null) => void,
  codec: StateCodec,
): ImportControls {
  const [target, setTarget] = useState<LaneTarget>({ lane: "auto", into: "new" });
  const [caseFile, setCaseFile] = useState<OpenCaseFile | null>(null);
  const [notes, setNotes] = useState<string[]>([]);
  const [asked, setAsked] = useState<{ file: File; text: string; choices: ImportQuestion["choices"] } | null>(null);
  const [reading, setReading] = useState<string | null>(null);

  const read = useCallback(
    (file: File, as: LaneTarget) => {
      const tooBig = checkFileSize(file.size, file.name);
      if (tooBig) {
        onError(tooBig.message);
        return;
      }
      setReading(file.name);
      file
        .arrayBuffer()
        .then((buffer) => codec.importFile(file.name, new Uint8Array(buffer), current().state, as))
        .then((answer) => {
          if (!answer.ok) {
            onError(answer.message);
            return;
          }
          onError(null);
          const value = answer.imported;
          if (value.kind === "question") {
            setAsked({ file, text: value.question, choices: value.choices });
            return;
          }
          setAsked(null);
          setNotes(answer.notes);
          if (value.kind === "cases") {
            const opened = unpackState(value.opened.state);
            setCaseFile({ fileName: file.name, imported: value.imported, index: 0, case: value.opened.case, opened });
            load(opened);
          } else {
            setCaseFile(null);
            load(unpackState(value.state));
          }
        })
        .catch((reason: unknown) => onError(`${file.name}: could not be read (${String(reason)})`))
        .finally(() => setReading(null));
    },
    [codec, current, load, onError],
  );
  const onFile = useCallback((file: File) => read(file, target), [read, target]);

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
  const forget = useCallback(() => {
    setCaseFile(null);
    setNotes([]);
    setAsked(null);
  }, []);
  const question: ImportQuestion | null = asked
    ? {
        text: asked.text,
        choices: asked.choices,
        answer: (as) => read(asked.file, as),
        dismiss: () => setAsked(null),
      }
    : null;
  return { target, setTarget, caseFile, onFile, openCaseAt, closeCaseFile, forget, notes, question, reading };
}
