import { type DragEvent, useState } from "react";
import publicCasesUrl from "../../../cases/public_cases.json?url";
import { MAX_CASE_FILE_BYTES, tooLargeError } from "../../io/caseFile";

export interface CaseFileLoaderProps {
  /**
   * Called the moment a file is chosen, before it is read: with its name and how to get its
   * contents (which rejects with a message naming the file): a chosen file as a Blob, whose bytes
   * are best read where they are parsed (a worker), since reading 200 MB blocks the reading thread.
   */
  onFile(sourceName: string, read: () => Promise<Blob | Uint8Array>): void;
  disabled?: boolean;
}

/** Picks a case file: the file picker, a drop on the zone, or the public cases shipped with the page. */
export function CaseFileLoader({ onFile, disabled = false }: CaseFileLoaderProps) {
  const [dragging, setDragging] = useState(false);

  const chooseFile = (file: File | undefined) => {
    if (!file) return;
    onFile(file.name, async () => {
      // Refused by its size alone: reading a file of gigabytes would stall the page first.
      if (file.size > MAX_CASE_FILE_BYTES) throw tooLargeError(file.name, file.size);
      return file;
    });
  };

  const chooseBuiltIn = () => {
    onFile("public_cases.json", async () => {
      try {
        const response = await fetch(publicCasesUrl);
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return new Uint8Array(await response.arrayBuffer());
      } catch (error) {
        throw new Error(`the built-in public cases could not be loaded (${(error as Error).message})`);
      }
    });
  };

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    chooseFile(event.dataTransfer.files[0]);
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
            chooseFile(event.currentTarget.files?.[0]);
            event.currentTarget.value = "";
          }}
        />
      </label>
      <span className="drop-hint">or drop one here, or</span>
      <button type="button" data-testid="load-public-cases" onClick={chooseBuiltIn} disabled={disabled}>
        Load the built-in public cases
      </button>
    </section>
  );
}
