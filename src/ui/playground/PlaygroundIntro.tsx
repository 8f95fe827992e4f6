import { memo } from "react";
import { TOUR } from "../../compute/player/tour";
import type { BackendRequest } from "../../names/backends";

/** The player's tour, on the backend the playground asks for (the player reads `backend` from the address). */
export function tourAddress(backend: BackendRequest): string {
  return `?view=player&tour=1${backend === "auto" ? "" : `&backend=${backend}`}`;
}

/**
 * The playground's first line: what the page computes, in the glossary's words, and the way into
 * the player's tour. Static text: nothing the user typed or imported is ever shown here.
 */
export const PlaygroundIntro = memo(function PlaygroundIntro({ backend }: { backend: BackendRequest }) {
  return (
    <div className="pg-intro" data-testid="playground-intro">
      <p>
        Discounted returns G<sub>t</sub> = r<sub>t</sub> + γ·G<sub>t+1</sub>, computed as slime does: chunk by chunk,
        each chunk's carry passed to the next, and checked token by token against a float64 serial reference.
      </p>
      <a className="take-tour" href={tourAddress(backend)} data-testid="take-tour">
        New here? Take the tour ({TOUR.length} stops) →
      </a>
    </div>
  );
});
