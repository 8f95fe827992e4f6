import { useEffect, useRef, useState } from "react";
import { editedAddress, linkedSource } from "../../compute/player/playerLink";
import type { PlaygroundState } from "../../io/playgroundState";
import type { BackendRequest } from "../../names/backends";
import { PlayerView } from "./PlayerView";

const ADDRESS_PAUSE_MS = 300;

/**
 * The player as the address opens it: the state in `#s=` (from "Open in player"), or its first
 * example; `?view=player&tour=1` (the playground's "Take the tour") opens the tour at its first stop.
 * An edit made with the player's controls replaces the address's `#s=`, so a reload keeps it.
 */
export function LinkedPlayer({ problems, backend }: { problems: string[]; backend: BackendRequest }) {
  const [linked] = useState(() => linkedSource(window.location.search, window.location.hash));
  const [tour] = useState(() => new URLSearchParams(window.location.search).has("tour"));
  // A link pasted into this tab that differs only in its fragment does not reload the page: reload it,
  // so the player opens what the new link holds.
  useEffect(() => {
    const onHashChange = () => window.location.reload();
    window.addEventListener("hashchange", onHashChange);
    return () => window.removeEventListener("hashchange", onHashChange);
  }, []);
  // A dragged slider edits many times a second; the address is written once it rests (browsers
  // throttle a page that replaces its address too often).
  const addressTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(addressTimer.current), []);
  const keepInAddress = (state: PlaygroundState) => {
    clearTimeout(addressTimer.current);
    addressTimer.current = setTimeout(() => {
      // No new history entry, and replaceState fires no hashchange: the page is not reloaded by it.
      const address = `${window.location.pathname}${editedAddress(window.location.search, state)}`;
      window.history.replaceState(window.history.state, "", address);
    }, ADDRESS_PAUSE_MS);
  };
  const notice = [linked.error?.message, ...problems].filter(Boolean).join(" ");
  return (
    <PlayerView
      initial={linked.source}
      notice={notice || undefined}
      backend={backend}
      startTour={tour}
      onEdited={keepInAddress}
    />
  );
}
