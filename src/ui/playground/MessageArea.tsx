import { memo } from "react";
import { Note } from "../Note";
import type { ImportQuestion } from "./files/useImport";

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
  /** Where an imported file's numbers go, when the user must say. */
  question: ImportQuestion | null;
  /** The file being read, if any. */
  reading: string | null;
  /** Lanes the batch holds that this estimator's scan does not read (or reads none of). */
  laneNotice: string | null;
  /** A link replaced the user's batch, which is one Undo away: said while the link's batch shows. */
  sessionKept: string | null;
}

/** The page's messages: errors name the file, field, row, token or byte at fault; the last result stays. */
export const MessageArea = memo(function MessageArea({
  errors,
  notice,
  notes,
  nonFiniteNote,
  urlProblems,
  restoring,
  question,
  reading,
  laneNotice,
  sessionKept,
}: MessageAreaProps) {
  return (
    <>
      <Note className="notice" text={reading && `Reading ${reading}…`} />
      {question ? (
        <fieldset className="notice import-question" data-testid="import-question">
          <legend className="sr-only">How is the imported file read?</legend>
          <p>{question.text}</p>
          <div className="choices">
            {question.choices.map((choice) => (
              <button
                key={choice.label}
                type="button"
                data-testid={`import-choice-${choice.id ?? choice.target.lane}`}
                onClick={() => question.answer(choice.target)}
              >
                {choice.label}
              </button>
            ))}
            <button type="button" onClick={question.dismiss}>
              Cancel
            </button>
          </div>
        </fieldset>
      ) : null}
      <Note className="notice" text={restoring && `Opening the ${restoring.toLowerCase()} (a large batch)…`} />
      <Note className="notice" text={sessionKept} testId="session-kept" />
      <Note className="notice url-notice" text={urlProblems} testId="url-notice" />
      <Note className="notice backend-notice" text={notice} testId="backend-notice" />
      <Note className="notice" text={notes} testId="import-notes" />
      <Note className="notice lane-notice" text={laneNotice} testId="lane-notice" />
      <Note className="notice" text={nonFiniteNote} testId="non-finite-note" />
      <Note className="error-message" text={errors} testId="error-message" alert />
    </>
  );
});
