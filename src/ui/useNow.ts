import { useEffect, useState } from "react";

/** `performance.now()`, refreshed a few times a second while `active`, so elapsed times tick while a run goes on. */
export function useNow(active: boolean): number {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (!active) return;
    setNow(performance.now());
    const timer = setInterval(() => setNow(performance.now()), 250);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}
