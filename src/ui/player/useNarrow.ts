import { useEffect, useState } from "react";

/** The width below which the player is one column (player.css uses the same 900 px). */
const QUERY = "(max-width: 900px)";

/** Whether the player is one column: then the stage comes first and the tour's words follow it. */
export function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => typeof matchMedia === "function" && matchMedia(QUERY).matches);
  useEffect(() => {
    if (typeof matchMedia !== "function") return;
    const query = matchMedia(QUERY);
    const onChange = () => setNarrow(query.matches);
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);
  return narrow;
}
