import { BACKEND_REQUESTS, type BackendRequest } from "../../names/backends";

/**
 * The backend menu's option labels. The chosen option also says what really runs, so the menu
 * never names a backend that is not running: after a fallback (`webgpu (not running: webgl
 * runs)`), while no worker is up (`wasm (not running)`), or for `auto` (`auto (webgpu runs)`).
 */
export function backendMenuLabels(requested: BackendRequest, running: string | null): Record<BackendRequest, string> {
  const labels = Object.fromEntries(
    BACKEND_REQUESTS.map((name) => [name, name === "auto" ? "auto (best available)" : name]),
  ) as Record<BackendRequest, string>;
  if (running === null) labels[requested] = `${requested} (not running)`;
  else if (requested === "auto") labels.auto = `auto (${running} runs)`;
  else if (running !== requested) labels[requested] = `${requested} (not running: ${running} runs)`;
  return labels;
}
