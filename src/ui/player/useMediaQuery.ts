import { useEffect, useState } from "react";

/** Whether a CSS media query matches now, kept up to date as it changes (false where there is no matchMedia). */
function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => typeof matchMedia === "function" && matchMedia(query).matches);
  useEffect(() => {
    if (typeof matchMedia !== "function") return;
    const list = matchMedia(query);
    const onChange = () => setMatches(list.matches);
    list.addEventListener("change", onChange);
    return () => list.removeEventListener("change", onChange);
  }, [query]);
  return matches;
}

/** Whether the player is one column (below player.css's same 900 px): then the stage comes first and the tour's words follow it. */
export const useNarrow = (): boolean => useMediaQuery("(max-width: 900px)");

/** Whether the user asked for reduced motion (then every step is a cut). */
export const useReducedMotion = (): boolean => useMediaQuery("(prefers-reduced-motion: reduce)");
