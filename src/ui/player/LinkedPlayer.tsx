import { useEffect, useState } from "react";
import type { BackendRequest } from "../../names/backends";
import { PlayerView } from "./PlayerView";
import { linkedSource } from "./playerLink";

/**
 * The player as the address opens it: the state in `#s=` (from "Open in player"), or its first
 * example; `?view=player&tour=1` (the playground's "Take the tour") opens the tour at its first stop.
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
  const notice = [linked.error?.message, ...problems].filter(Boolean).join(" ");
  return <PlayerView initial={linked.source} notice={notice || undefined} backend={backend} startTour={tour} />;
}
