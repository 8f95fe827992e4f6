import { readFileSync } from "node:fs";
import type { Browser } from "@playwright/test";

/**
 * The peak resident memory (VmHWM, MB) of the browser's renderer processes alive now, read from
 * /proc (Linux): the page's renderer holds its workers too, so this is what the "renderer ≤
 * 600 MB" measures. Read before the context closes; null where /proc or CDP's process list is missing.
 */
export async function rendererPeakMb(browser: Browser): Promise<number | null> {
  try {
    const cdp = await browser.newBrowserCDPSession();
    const info = (await cdp.send("SystemInfo.getProcessInfo")) as { processInfo: { type: string; id: number }[] };
    await cdp.detach();
    const peaks = info.processInfo
      .filter((p) => p.type === "renderer")
      .map((p) => {
        const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${p.id}/status`, "utf8"));
        return match ? Number(match[1]) / 1024 : 0;
      });
    return peaks.length > 0 ? Math.round(Math.max(...peaks)) : null;
  } catch {
    return null;
  }
}
