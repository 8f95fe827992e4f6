export interface NoticesProps {
  /** What went wrong: a bad file, a failed run, a worker that died. */
  error: string | null;
  /** What the engine did on its own: a fallback to a lower backend, a restart. */
  notice: string | null;
  /** Problems with the address (unknown parameter values). */
  urlProblems: string[];
}

/** Messages for the user, as plain text (never HTML). */
export function Notices({ error, notice, urlProblems }: NoticesProps) {
  return (
    <>
      {urlProblems.length > 0 ? (
        <div className="notice url-notice" role="status" data-testid="url-notice">
          {urlProblems.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      ) : null}
      {notice ? (
        <p className="notice backend-notice" role="status" data-testid="backend-notice">
          {notice}
        </p>
      ) : null}
      {error ? (
        <pre className="error-message" role="alert" data-testid="error-message">
          {error}
        </pre>
      ) : null}
    </>
  );
}
