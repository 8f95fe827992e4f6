import { useEffect, useState } from "react";
import { type Startup, startupState } from "../../compute/playground/persistence";
import { StateCodec } from "../../compute/playground/stateCodec";
import { linkText } from "../../io/shareLink";
import { pageStorage } from "./pageStorage";
import { loadIndexedSession } from "./sessionStore";
import { startEngineEarly } from "./useEngines";
import { useKeptSession } from "./useKeptSession";
import { usePersistence } from "./usePersistence";
import { type PlaygroundStore, usePlaygroundStore } from "./usePlaygroundStore";
import { useUndoKeys } from "./useUndoKeys";

function readStartup(): Startup {
  return startupState(window.location.search, pageStorage(), window.location.hash);
}

// The first visit's state is read as this module loads, and its engine started then, so that the
// worker comes up while the view first renders; the first mount takes both over (same address).
let firstStartup: { href: string; startup: Startup } | null = null;
if (typeof window !== "undefined") {
  const startup = readStartup();
  firstStartup = { href: window.location.href, startup };
  startEngineEarly(startup.state.backend);
}

function takeStartup(): Startup {
  const first = firstStartup;
  firstStartup = null;
  return first && first.href === window.location.href ? first.startup : readStartup();
}

export interface PlaygroundSession {
  /** Where the page's first state came from (link, saved session, example), and what the address said. */
  startup: Startup;
  /** The state with its undo history. */
  store: PlaygroundStore;
  /** The codec worker: links, sessions, imports and exports are encoded and read there. */
  codec: StateCodec;
  /** Why the link or the saved session could not be opened, or null. */
  startupError: string | null;
  /** Why the last save failed (a reload would not bring the batch back), or null. */
  saveError: string | null;
  /** A large link or session being decoded in the worker (its source), or null. */
  restoring: string | null;
  /** The batch is too large for a link: the address carries no `s`. */
  linkTooLong: boolean;
  /** A link replaced the user's batch, which is one Undo away: what the page says, or null. */
  sessionKept: string | null;
}

/**
 * The playground's state as a session of the user's: opened from the link, the saved session or the
 * example (a large one decoded in the codec worker), a link pasted into the tab opened in place, the
 * session a link replaces kept one Undo away, the address and the saved session kept in step with
 * every committed edit, and Ctrl+Z / Ctrl+Shift+Z over its history.
 */
export function usePlaygroundSession(): PlaygroundSession {
  const [startup] = useState(takeStartup);
  const store = usePlaygroundStore(() => startup.state);
  const { committed, edit } = store;
  const [codec] = useState(() => new StateCodec());
  useEffect(() => () => codec.dispose(), [codec]);
  const [startupError, setStartupError] = useState<string | null>(startup.error);
  const [restoring, setRestoring] = useState(startup.pending?.source ?? null);
  const kept = useKeptSession(startup, codec, store.keepBehind, committed, setStartupError);
  const { linkOpened, linkSettled } = kept;

  // A link or session too large to decode here at startup is decoded in the codec worker. The
  // decodes use `edit` itself: they are no action of the user's (the editor's hint stays).
  useEffect(() => {
    const pending = startup.pending;
    if (!pending) return;
    const text = pending.text !== null ? Promise.resolve({ text: pending.text }) : loadIndexedSession();
    text
      .then((found) =>
        "text" in found ? codec.decode(found.text, pending.source) : { ok: false as const, message: found.error },
      )
      .then((answer) => {
        if (!answer.ok) return setStartupError(answer.message);
        edit(() => answer.state);
        // The session shown meanwhile is now one undo away.
        if (pending.source === "Shared link" && startup.replaced !== null) linkOpened(answer.state);
      })
      .finally(() => {
        setRestoring(null);
        if (pending.source === "Shared link") linkSettled();
      });
  }, [startup, codec, edit, linkOpened, linkSettled]);

  // A link pasted into this tab that differs only in its fragment does not reload the page: open it here.
  useEffect(() => {
    const onHashChange = () => {
      const text = linkText(window.location.search, window.location.hash);
      if (text === null) return;
      setRestoring("Shared link");
      codec
        .decode(text, "Shared link")
        .then((answer) => {
          if (!answer.ok) return setStartupError(answer.message);
          edit(() => answer.state);
          linkOpened(answer.state);
        })
        .finally(() => setRestoring(null));
    };
    window.addEventListener("hashchange", onHashChange);
    return () => window.removeEventListener("hashchange", onHashChange);
  }, [codec, edit, linkOpened]);

  const { linkTooLong, saveError } = usePersistence(committed, codec, restoring !== null || kept.keeping);
  useUndoKeys(store.undo, store.redo);
  return {
    startup,
    store,
    codec,
    startupError,
    saveError,
    restoring,
    linkTooLong,
    sessionKept: kept.note,
  };
}
