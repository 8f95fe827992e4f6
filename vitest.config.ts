import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    environment: "node",
    testTimeout: 60_000,
    // Vitest's default for a run is one worker fewer than the cores: one on a 2-core CI machine,
    // where nothing else runs beside the unit tests. Every core takes test files.
    maxWorkers: "100%",
  },
});
