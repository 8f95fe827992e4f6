import type { TestInfo } from "@playwright/test";

/**
 * Where a spec's picture for the docs goes: docs/images with SCANLAB_DOCS_IMAGES=1 (to refresh them
 * on purpose), else the test's own output folder, so `npm test` never rewrites a committed file.
 */
export function docsImage(info: TestInfo, name: string): string {
  return process.env.SCANLAB_DOCS_IMAGES === "1" ? `docs/images/${name}` : info.outputPath(name);
}
