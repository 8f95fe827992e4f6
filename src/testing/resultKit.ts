/** Test support: unwrap what a reader returns ({ ok, value } or { ok: false, error }) when a test expects one side. */

type Answer = { ok: true } | { ok: false; error: { message: string } };

/** What the reader accepted; a refusal throws with its message, saying `what` was expected to be read. */
export function accepted<R extends Answer>(result: R, what: string): Extract<R, { ok: true }> {
  if (!result.ok) throw new Error(`expected the ${what} to be read: ${result.error.message}`);
  return result as Extract<R, { ok: true }>;
}

/** The message of what the reader refused; an accepted `what` throws. */
export function refusalMessage(result: Answer, what: string): string {
  if (result.ok) throw new Error(`expected the ${what} to be refused`);
  return result.error.message;
}
