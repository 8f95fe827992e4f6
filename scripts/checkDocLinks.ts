/**
 * `npm run docs:links`: every relative link in README.md and docs/*.md must point at a file that exists, and a
 * `#anchor` on a markdown page at one of its headings (GitHub's slugs). Exits 1 when a link is broken.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

/** GitHub's heading anchors: lower case, punctuation dropped (except - and _), spaces to -, repeats numbered. */
function anchors(path: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  const text = readFileSync(path, "utf8").replace(/```[\s\S]*?```/g, "");
  for (const line of text.split("\n")) {
    const heading = /^#{1,6} (.*)/.exec(line);
    if (!heading) continue;
    const slug = heading[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}_\- ]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

const files = [
  "README.md",
  ...readdirSync("docs")
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const broken: string[] = [];
for (const file of files) {
  const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const link = match[1];
    if (/^[a-z]+:/i.test(link)) continue;
    const [path, anchor] = link.split("#");
    const target = path ? normalize(join(dirname(file), path)) : file;
    if (!existsSync(target)) broken.push(`${file}: ${link} (no such file)`);
    else if (anchor && target.endsWith(".md") && !anchors(target).has(anchor))
      broken.push(`${file}: ${link} (no heading #${anchor} in ${target})`);
  }
}
for (const line of broken) console.log(line);
console.log(broken.length === 0 ? `${files.length} files, every link resolves` : `${broken.length} broken links`);
process.exit(broken.length === 0 ? 0 : 1);
