import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [react()],
  // WebGPU and module workers need a current browser; nothing older is supported.
  build: { target: "es2022", chunkSizeWarningLimit: 4096 },
  worker: { format: "es" },
  preview: { port: 4173, strictPort: true },
  server: { port: 5173 },
});
