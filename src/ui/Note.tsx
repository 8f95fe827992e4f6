export interface NoteProps {
  /** The message: nothing shows for null, false, "" or no lines; several lines show as a block of paragraphs. */
  text: string | readonly string[] | null | undefined | false;
  className: string;
  testId?: string;
  /** What went wrong (`role="alert"`); a status otherwise. */
  alert?: boolean;
  /** Keeps the message's line breaks (a conformance error names a file, then a field on its own line). */
  pre?: boolean;
}

/** A message for the user, as plain text (never HTML): the page's notices, notes and errors. */
export function Note({ text, className, testId, alert = false, pre = false }: NoteProps) {
  if (!text || text.length === 0) return null;
  const role = alert ? "alert" : "status";
  if (typeof text !== "string") {
    return (
      <div className={className} role={role} data-testid={testId}>
        {text.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
    );
  }
  const Tag = pre ? "pre" : "p";
  return (
    <Tag className={className} role={role} data-testid={testId}>
      {text}
    </Tag>
  );
}
