import { Note } from "../Note";

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
      <Note className="notice url-notice" text={urlProblems} testId="url-notice" />
      <Note className="notice backend-notice" text={notice} testId="backend-notice" />
      <Note className="error-message" text={error} testId="error-message" alert pre />
    </>
  );
}
