// Temporary build of the player alone (deleted before merge): `/` serves the player.
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  publicDir: fileURLToPath(new URL("../../../../public", import.meta.url)),
  plugins: [react()],
  build: {
    target: "es2022",
    chunkSizeWarningLimit: 4096,
    outDir: fileURLToPath(new URL("../../../../dist-player", import.meta.url)),
    emptyOutDir: true,
  },
  worker: { format: "es" },
});
