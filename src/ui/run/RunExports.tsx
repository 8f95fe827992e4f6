import { useState } from "react";
import type { ExportAnswer } from "../../compute/run/runWorker";
import { download } from "../playground/files/download";
import { ToolbarButton } from "../ToolbarButton";

export interface RunExportsProps {
  /** The samples exported: the failing ones, or the selected one when none fails. */
  indices: number[];
  failing: boolean;
  exportCases(indices: number[]): Promise<ExportAnswer>;
  exportPytest(indices: number[]): Promise<ExportAnswer>;
}

/**
 * The failing samples (or the selected one) as a golden case file, the one `scanlab dump
 * --export-cases` writes, and as the playground's pytest file of slime's own scan on them.
 */
export function RunExports({ indices, failing, exportCases, exportPytest }: RunExportsProps) {
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const which = failing
    ? `the ${indices.length} failing sample${indices.length === 1 ? "" : "s"}`
    : `sample ${indices[0]}`;
  const save = (what: string, run: (indices: number[]) => Promise<ExportAnswer>) => {
    setStatus({ text: `Writing ${what}…`, error: false });
    run(indices)
      .then((answer) => {
        if (!answer.ok) {
          setStatus({ text: `${what}: ${answer.message}`, error: true });
          return;
        }
        const type = answer.fileName.endsWith(".py") ? "text/x-python" : "application/json";
        download(new Blob([answer.text], { type }), answer.fileName);
        setStatus({ text: `Saved ${answer.fileName}: ${answer.note}`, error: false });
      })
      .catch((reason: unknown) => setStatus({ text: `${what}: ${String(reason)}`, error: true }));
  };
  return (
    <div className="run-exports" data-testid="run-exports">
      <span>Export {which}:</span>
      <ToolbarButton testId="run-export-cases" onClick={() => save("the case file", exportCases)}>
        as a case file
      </ToolbarButton>
      <ToolbarButton testId="run-export-pytest" onClick={() => save("the pytest file", exportPytest)}>
        as a pytest file
      </ToolbarButton>
      {status ? (
        <span
          className={status.error ? "error-message small" : "muted small"}
          role="status"
          data-testid="run-export-status"
        >
          {status.text}
        </span>
      ) : null}
      <p className="muted small">
        The case file holds the dump's inputs, Scanlab's float64 expected outputs and slime's stored float32 ones (
        <code>scanlab check FILE</code>, or the Conformance view). The pytest file runs slime's own chunked scan on the
        same inputs against Scanlab's float64 reference.
      </p>
    </div>
  );
}
