/**
 * The panel's model off the main thread: a long row scanned twice in float32 (rank by rank and at
 * cp_size 1), plus slime's PPO path, takes hundreds of ms at 8192 tokens and seconds at 65,536.
 */
import * as Comlink from "comlink";
import type { PlaygroundRow } from "../../io/playgroundState";
import { type CpPanelParams, type CpPanelResult, cpPanelModel } from "./cpPanelModel";

const api = {
  model(row: PlaygroundRow, params: CpPanelParams): CpPanelResult {
    return cpPanelModel(row, params);
  },
};

export type CpWorkerApi = typeof api;

Comlink.expose(api);
