import type { RunReport } from "../../compute/run/runWorker";

/**
 * A file that is no slime train dump: what it is and what can be done with it, in place of the
 * settings, the table and the charts (a plain file has no samples; a rollout dump, no advantages).
 * The sentence is the one `scanlab dump` prints for the same file.
 */
export function RunFileKind({ report, onOpenLanes }: { report: RunReport; onOpenLanes(): void }) {
  return (
    <section className="panel run-file-kind" data-testid="run-file-kind" data-kind={report.kind}>
      <h2>{report.kind === "plain" ? "A tensor file, not a slime dump" : "A rollout dump alone"}</h2>
      {report.kind === "plain" ? (
        <>
          <p className="muted small">
            Its lanes are read by name (rewards, values, kl, loss masks; docs/dumps.md). Nothing was replayed, so this
            page shows no verdict; the playground scans the lanes in chunks against its float64 serial reference.
          </p>
          <button type="button" onClick={onOpenLanes} data-testid="run-open-lanes">
            Open its lanes in the playground
          </button>
        </>
      ) : (
        <p className="muted small">
          A rollout dump (<code>rollout_data/&lt;id&gt;.pt</code>) holds the Samples slime generated: their rewards,
          masks and status, but no advantages or returns. Choose it together with <code>train_data/&lt;id&gt;.pt</code>{" "}
          of the same step to replay that one, with each sample's status beside it.
        </p>
      )}
    </section>
  );
}
