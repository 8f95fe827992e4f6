import { useEffect, useRef, useState } from "react";
import type { PlaygroundState } from "../../io/playgroundState";
import { STORAGE_KEY } from "../../io/shareLink";
import { replaceSearch } from "../urlState";
import type { StateCodec } from "./compute/stateCodec";
import { MAX_LINK_CHARS, searchWith } from "./persistence";

/** The address and the saved session follow the state this long after the last edit. */
const SAVE_DELAY_MS = 400;
/**
 * Sessions up to this size are saved at once; a larger one (a hand-drawn 16 × 8192 batch is
 * megabytes) only when the page is hidden or closed: writing it to local storage blocks the main
 * thread for a few hundred ms, which must not happen after every stroke.
 */
const PROMPT_SAVE_CHARS = 200_000;

function save(text: string): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, text);
  } catch {
    // Storage full or disabled: the link still holds the state.
  }
}

/**
 * Keeps `?s=` and the saved session in step with the committed state, encoding in the codec
 * worker. Returns whether the state is too large for a link (the address then carries no `s`).
 */
export function usePersistence(committed: PlaygroundState, codec: StateCodec, paused: boolean): boolean {
  const [linkTooLong, setLinkTooLong] = useState(false);
  const unsaved = useRef<string | null>(null);

  useEffect(() => {
    const flush = () => {
      if (unsaved.current !== null) save(unsaved.current);
      unsaved.current = null;
    };
    const onVisibility = () => {
      if (document.visibilityState === "hidden") flush();
    };
    window.addEventListener("pagehide", flush);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      window.removeEventListener("pagehide", flush);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, []);

  useEffect(() => {
    if (paused) return;
    const timer = setTimeout(() => {
      codec
        .encode(committed)
        .then((encoded) => {
          const fits = encoded.length <= MAX_LINK_CHARS;
          setLinkTooLong(!fits);
          replaceSearch(searchWith(fits ? encoded : null, window.location.search));
          if (encoded.length <= PROMPT_SAVE_CHARS) {
            unsaved.current = null;
            save(encoded);
          } else unsaved.current = encoded;
        })
        .catch(() => {}); // superseded by a newer state: that one is saved instead
    }, SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [committed, codec, paused]);

  return linkTooLong;
}
