import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [react()],
  // WebGPU and module workers need a current browser; nothing older is supported.
  // SCANLAB_OUT_DIR lets several e2e runs build side by side without overwriting each other.
  build: { target: "es2022", chunkSizeWarningLimit: 4096, outDir: process.env.SCANLAB_OUT_DIR ?? "dist" },
  worker: { format: "es" },
  // The worker's imports are only discovered when it first starts, which made the dev server
  // re-bundle and reload the page then; bundling them up front keeps the first visit steady.
  optimizeDeps: {
    include: [
      "@tensorflow/tfjs-core",
      "@tensorflow/tfjs-backend-cpu",
      "@tensorflow/tfjs-backend-wasm",
      "@tensorflow/tfjs-backend-webgl",
      "@tensorflow/tfjs-backend-webgpu",
      "comlink",
      "zod",
    ],
  },
  preview: { port: 4173, strictPort: true },
  server: { port: 5173 },
});
