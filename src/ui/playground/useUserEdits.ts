import { useCallback } from "react";
import type { PlaygroundState } from "../../io/playgroundState";
import type { PlaygroundStore } from "./usePlaygroundStore";

export interface UserEdits {
  edit(change: (state: PlaygroundState) => PlaygroundState): void;
  setView: PlaygroundStore["setView"];
}

/**
 * What the user changes (a setting, a row, an example, a view): the editor's hint steps aside. The
 * startup and link decodes use the store's own `edit`, which is no action of the user's.
 */
export function useUserEdits(store: PlaygroundStore, stepAside: () => void): UserEdits {
  const { edit, setView } = store;
  const userEdit = useCallback(
    (change: (state: PlaygroundState) => PlaygroundState) => {
      stepAside();
      edit(change);
    },
    [edit, stepAside],
  );
  const userSetView = useCallback(
    (view: Parameters<PlaygroundStore["setView"]>[0]) => {
      stepAside();
      setView(view);
    },
    [setView, stepAside],
  );
  return { edit: userEdit, setView: userSetView };
}
