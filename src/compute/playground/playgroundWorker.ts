/** The playground's worker: what it does is playgroundApi.ts. */
import * as Comlink from "comlink";
import { playgroundApi } from "./playgroundApi";

Comlink.expose(playgroundApi());
