import type { DumpComparison } from "../../io/playgroundState";

/**
 * Where the playground's row came from, when the run view opened a sample of a slime dump here:
 * the file, the step and the sample, which lines of the returns chart are computed here and which
 * one is slime's own, and what the playground does not redo (the whitening over the dump's batch).
 * It stays until dismissed (or until another batch is loaded).
 */
export function DumpBanner({ dump, onDismiss }: { dump: DumpComparison; onDismiss(): void }) {
  const step = dump.step === null ? "step unknown (the file stores no rollout_id)" : `step ${dump.step}`;
  const position = dump.rolloutPosition === null ? "" : `, rollout_position ${dump.rolloutPosition}`;
  return (
    <aside className="notice dump-banner" aria-label="From a slime dump" data-testid="dump-banner">
      <p>
        <strong>From a slime dump:</strong> <span data-testid="dump-banner-file">{dump.file}</span>, {step}, sample{" "}
        {dump.sample}
        {position} (row 0 here), replayed as {dump.estimator}.
      </p>
      <p className="small">
        The chunked scan and the float64 serial reference are computed here, on the sample's inputs as the dump stores
        them; the dotted line <em>stored in the dump</em> is slime's own float32 output, read from the file.
      </p>
      {dump.normalized ? (
        <p className="small" data-testid="dump-banner-normalization">
          The dump's advantages are whitened over the whole batch of {dump.batchSize} samples (--normalize-advantages);
          the playground shows this sample's raw advantages, so only the returns are drawn beside the dump's.
        </p>
      ) : null}
      <button type="button" className="small" onClick={onDismiss} data-testid="dump-banner-dismiss">
        Dismiss
      </button>
    </aside>
  );
}

/** The dump's stored values for the output charted, when they belong to the row shown; null otherwise. */
export function storedLine(
  dump: DumpComparison | undefined,
  row: number,
  rowLength: number | undefined,
  output: string,
): { values: number[]; label: string; short: string } | null {
  if (!dump || row !== 0) return null;
  // Whitened advantages are over slime's whole batch; the playground's are raw: no line to compare.
  const values =
    output === "returns" ? dump.returns : output === "advantages" && !dump.normalized ? dump.advantages : null;
  if (!values || values.length !== rowLength) return null;
  return { values, label: "stored in the dump (slime's float32)", short: "dump" };
}
