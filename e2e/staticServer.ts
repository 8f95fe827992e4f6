import { createReadStream, existsSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/**
 * The built page served as a plain static host serves it: files only, and a request head of at most
 * 8 KB (nginx's default for one header line; most hosts allow less than Node's 16 KB). A link that
 * put the state in the query would be refused here with 431.
 */
export async function startStaticServer(root = process.env.SCANLAB_OUT_DIR ?? "dist"): Promise<{
  origin: string;
  close(): Promise<void>;
}> {
  const server: Server = createServer({ maxHeaderSize: 8192 }, (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname)).replace(/^\/+/, "");
    let file = join(root, path);
    if (!file.startsWith(normalize(root)) || !existsSync(file) || statSync(file).isDirectory()) {
      file = join(root, "index.html");
    }
    response.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
