// Temporary entry for developing the player before App.tsx routes ?view=player (deleted before merge).
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import "../../styles.css";
import type { BackendRequest } from "../../../engine/backendNames";
import { PlayerView } from "../PlayerView";
import { linkedSource } from "../playerLink";

const params = new URLSearchParams(window.location.search);
const backend = (params.get("backend") ?? "auto") as BackendRequest;
const linked = linkedSource(window.location.search);
const root = document.getElementById("root");
if (!root) throw new Error("no #root");
createRoot(root).render(
  <StrictMode>
    <main className="app" style={{ maxWidth: "none" }}>
      <h1>Scanlab</h1>
      <PlayerView initial={linked.source} notice={linked.error?.message} backend={backend} />
    </main>
  </StrictMode>,
);
