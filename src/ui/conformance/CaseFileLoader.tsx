import { type DragEvent, useState } from "react";
import publicCasesUrl from "../../../cases/public_cases.json?url";

export interface CaseFileLoaderProps {
  /** Called with the text and name of the chosen file; parsing is the caller's job. */
  onText(text: string, sourceName: string): void;
  onError(message: string): void;
  disabled?: boolean;
}

/** Picks a case file: the file picker, a drop on the zone, or the public cases shipped with the page. */
export function CaseFileLoader({ onText, onError, disabled = false }: CaseFileLoaderProps) {
  const [dragging, setDragging] = useState(false);

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      onText(await file.text(), file.name);
    } catch (error) {
      onError(`${file.name}: could not be read (${(error as Error).message})`);
    }
  };

  const loadBuiltIn = async () => {
    try {
      const response = await fetch(publicCasesUrl);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      onText(await response.text(), "public_cases.json");
    } catch (error) {
      onError(`the built-in public cases could not be loaded (${(error as Error).message})`);
    }
  };

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    void readFile(event.dataTransfer.files[0]);
  };

  return (
    <section
      className={`case-file-loader${dragging ? " dragging" : ""}`}
      aria-label="Case file"
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <label>
        Case file (JSON, schema_version 1):{" "}
        <input
          type="file"
          accept=".json,application/json"
          data-testid="case-file-input"
          disabled={disabled}
          onChange={(event) => {
            void readFile(event.currentTarget.files?.[0]);
            event.currentTarget.value = "";
          }}
        />
      </label>
      <span className="drop-hint">or drop one here, or</span>
      <button type="button" onClick={() => void loadBuiltIn()} disabled={disabled}>
        Load the built-in public cases
      </button>
    </section>
  );
}
