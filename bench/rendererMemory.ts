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

/**
 * The CPU time (user + system, seconds) the browser's renderer processes alive now have used, read
 * from /proc (Linux): its workers' threads included, so a difference across a run is what reading it
 * cost, whatever the machine's load did to the wall time. Null where /proc or CDP's list is missing.
 */
export async function rendererCpuSeconds(browser: Browser): Promise<number | null> {
  try {
    const cdp = await browser.newBrowserCDPSession();
    const info = (await cdp.send("SystemInfo.getProcessInfo")) as { processInfo: { type: string; id: number }[] };
    await cdp.detach();
    let ticks = 0;
    for (const p of info.processInfo.filter((p) => p.type === "renderer")) {
      // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
      const stat = readFileSync(`/proc/${p.id}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks / 100; // USER_HZ, 100 on Linux
  } catch {
    return null;
  }
}
