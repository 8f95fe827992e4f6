import { useEffect, useState } from "react";
import { addressWith, linkSize } from "../../compute/playground/persistence";
import type { StateCodec } from "../../compute/playground/stateCodec";
import type { PlaygroundState } from "../../io/playgroundState";
import { replaceAddress } from "../urlState";
import { saveSession } from "./sessionStore";

/** The address and the saved session follow the state this long after the last edit. */
const SAVE_DELAY_MS = 400;

export interface Persistence {
  /** The state is too large for a link: the address then carries no `s`. */
  linkTooLong: boolean;
  /** Why the last save failed (a reload would not bring the batch back), or null. */
  saveError: string | null;
}

/**
 * Keeps `#s=` and the saved session (sessionStore.ts: local storage, or IndexedDB for a large
 * one) in step with the committed state, encoding in the codec worker.
 */
export function usePersistence(committed: PlaygroundState, codec: StateCodec, paused: boolean): Persistence {
  const [linkTooLong, setLinkTooLong] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);

  useEffect(() => {
    if (paused) return;
    let current = true;
    const timer = setTimeout(() => {
      codec
        .encode(committed)
        .then(async (encoded) => {
          const fits = linkSize(encoded.length) !== "too large";
          setLinkTooLong(!fits);
          const address = addressWith(fits ? encoded : null, window.location.search);
          replaceAddress(address.search, address.hash);
          const failed = await saveSession(encoded);
          if (current) setSaveError(failed);
        })
        .catch(() => {}); // superseded by a newer state: that one is saved instead
    }, SAVE_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [committed, codec, paused]);

  return { linkTooLong, saveError };
}
