import { useCallback, useState } from "react";
import { pageStorage } from "./pageStorage";

/** Set once the user has drawn or typed a value: the editor's hint is then never shown again. */
export const HINT_KEY = "scanlab.hint.draw";

export interface Hint {
  /** The editor's hint is on show. */
  show: boolean;
  /** The user acted (an import, an example, a setting): the hint steps aside for this visit. */
  stepAside(): void;
  /** The editor has been used: the hint is not shown on later visits. */
  rememberUsed(): void;
  /** Both: a value drawn or typed. */
  dismiss(): void;
}

/**
 * The editor's hint shows until the user acts (draws, imports, loads an example, edits a setting);
 * once they have drawn or typed a value it never comes back (HINT_KEY in local storage).
 */
export function useHint(): Hint {
  const [show, setShow] = useState(() => pageStorage()?.getItem(HINT_KEY) === null);
  const stepAside = useCallback(() => setShow(false), []);
  const rememberUsed = useCallback(() => {
    try {
      pageStorage()?.setItem(HINT_KEY, "used");
    } catch {
      // Without storage the hint simply comes back next visit.
    }
  }, []);
  const dismiss = useCallback(() => {
    setShow(false);
    rememberUsed();
  }, [rememberUsed]);
  return { show, stepAside, rememberUsed, dismiss };
}
