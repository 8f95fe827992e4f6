import { useCallback, useEffect, useRef, useState } from "react";
import type { Startup } from "../../compute/playground/persistence";
import type { StateCodec } from "../../compute/playground/stateCodec";
import type { PlaygroundData, PlaygroundState } from "../../io/playgroundState";
import { linkText } from "../../io/shareLink";
import { loadIndexedSession } from "./sessionStore";

export interface KeptSession {
  /** The page says the batch shown came from a link and the user's own is one Undo away; else null. */
  note: string | null;
  /** The replaced session is still being read: nothing may be saved over it yet. */
  keeping: boolean;
  /** A link (pasted into this tab) replaced the batch shown, which the edit left one Undo away. */
  linkOpened(state: PlaygroundState): void;
  /**
   * The startup's link, decoded in the worker, is in (or was refused): a session read meanwhile goes
   * under it now, so that one Undo brings back the session, not the example shown while both decoded.
   */
  linkSettled(): void;
}

export const SESSION_KEPT_NOTE =
  "This link replaced the batch you had open; your batch is kept: Undo (Ctrl+Z) brings it back.";

/**
 * The session is the user's: a link opened over it (at startup, or pasted into this tab) never
 * takes it away. The replaced session stays one Undo away, the page says so while the link's batch
 * is shown, and the saved session is not written over until the replaced one has been read.
 */
export function useKeptSession(
  startup: Startup,
  codec: StateCodec,
  keepBehind: (state: PlaygroundState) => void,
  committed: PlaygroundState,
  onError: (message: string) => void,
): KeptSession {
  const replaced = startup.replaced;
  // The link's own data: the note shows while it is the batch on the page (an edit, an import or an
  // undo moves away from it).
  const [linkData, setLinkData] = useState<PlaygroundData | null>(() =>
    replaced !== null && startup.pending?.source !== "Shared link" ? startup.state.data : null,
  );
  const [keeping, setKeeping] = useState(() => replaced !== null && "text" in replaced);
  const linkIn = useRef(startup.pending?.source !== "Shared link");
  const waiting = useRef<PlaygroundState | null>(null);

  useEffect(() => {
    if (replaced === null) return;
    // A session read here went under the link when the page opened; a link decoded in the worker
    // is an edit over the session (which it leaves one undo away), and says so itself.
    if ("state" in replaced) {
      if (startup.pending?.source !== "Shared link") keepBehind(replaced.state);
      return;
    }
    const link = linkText(window.location.search, window.location.hash);
    const text = replaced.text !== null ? Promise.resolve({ text: replaced.text }) : loadIndexedSession();
    text
      .then(async (found) => {
        if (!("text" in found)) return onError(`${found.error}; the link's batch is shown`);
        if (found.text === link) return;
        const answer = await codec.decode(found.text, "Saved session");
        if (!answer.ok) return onError(`${answer.message}; the link's batch is shown`);
        if (!linkIn.current) {
          waiting.current = answer.state;
          return;
        }
        keepBehind(answer.state);
        if (startup.pending?.source !== "Shared link") setLinkData(startup.state.data);
      })
      .finally(() => setKeeping(false));
  }, [replaced, startup, codec, keepBehind, onError]);

  const linkOpened = useCallback((state: PlaygroundState) => setLinkData(state.data), []);
  const linkSettled = useCallback(() => {
    linkIn.current = true;
    if (waiting.current) keepBehind(waiting.current);
    waiting.current = null;
  }, [keepBehind]);
  const note = linkData !== null && committed.data === linkData ? SESSION_KEPT_NOTE : null;
  return { note, keeping, linkOpened, linkSettled };
}
