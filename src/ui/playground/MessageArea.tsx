import { memo } from "react";
export interface MessageAreaProps {
  /** Everything wrong right now: a bad file, a refused value, a failed run. Plain text, never HTML. */
  errors: string[];
  notice: string | null;
  /** What an import changed on the way in (values rounded to float32, parts not reproduced). */
  notes: string[];
  /** The NaN and ±Inf of the inputs, by row and token: a note, not an error (they are run). */
  nonFiniteNote: string | null;
  urlProblems: string[];
  restoring: string | null;
}

/** The page's messages: errors name the file, field, row, token or byte at fault; the last result stays. */
export const MessageArea = memo(function MessageArea({
  errors,
  notice,
  notes,
  nonFiniteNote,
  urlProblems,
  restoring,
}: MessageAreaProps) {
  return (
    <>
      {restoring ? (
        <p className="notice" role="status">
          Opening the {restoring.toLowerCase()} (a large batch)…
        </p>
      ) : null}
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
      {notes.length > 0 ? (
        <div className="notice" role="status" data-testid="import-notes">
          {notes.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      ) : null}
      {nonFiniteNote ? (
        <p className="notice" role="status" data-testid="non-finite-note">
          {nonFiniteNote}
        </p>
      ) : null}
      {errors.length > 0 ? (
        <div className="error-message" role="alert" data-testid="error-message">
          {errors.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      ) : null}
    </>
  );
});
