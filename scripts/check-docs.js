// npm run check-docs — the documents hold to CONTRIBUTING.md's rules:
// every relative link in README.md, CONTRIBUTING.md and docs/ reaches a file
// that exists (and, with #anchor, a heading of it, as GitHub spells anchors);
// README.md stays a front door (at most 300 lines); and no document tells
// the story of how the code got here (issue numbers, clock times).
// tests/unit/repository/docs.test.ts runs the same check in `npm test`.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const README_MAX_LINES = 300;
/** "issue 24", "(issue 25)", "21:26–21:38": a diary, not a document. */
const STORY = [/\bissue [0-9]+/i, /\b[0-9]{1,2}:[0-9]{2}–/];

/** The documents: README.md, CONTRIBUTING.md and every markdown file under docs/. */
export function documents(root = ROOT) {
  const found = ["README.md", "CONTRIBUTING.md"].filter((name) => existsSync(path.join(root, name)));
  const walk = (dir) => {
    for (const name of readdirSync(path.join(root, dir))) {
      const file = path.join(dir, name);
      if (statSync(path.join(root, file)).isDirectory()) walk(file);
      else if (name.endsWith(".md")) found.push(file);
    }
  };
  if (existsSync(path.join(root, "docs"))) walk("docs");
  return found;
}

/** Markdown without its fenced code blocks and inline code, where links are not links. */
function withoutCode(text) {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** Every anchor a markdown file offers (repeated headings get -1, -2, …). */
function anchorsOf(text) {
  const seen = new Map();
  const anchors = new Set();
  const headings = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm);
  for (const [, heading] of headings) {
    const base = anchorOf(heading.replace(/`/g, ""));
    const count = seen.get(base) ?? 0;
    anchors.add(count === 0 ? base : `${base}-${count}`);
    seen.set(base, count + 1);
  }
  return anchors;
}

/** Problems of the documents, one line each ("file: what"); none when all is well. */
export function docProblems(root = ROOT) {
  const problems = [];
  const files = documents(root);
  for (const file of files) {
    const text = readFileSync(path.join(root, file), "utf8");
    text.split("\n").forEach((line, i) => {
      for (const pattern of STORY) if (pattern.test(line)) problems.push(`${file}:${i + 1}: tells a story ("${line.match(pattern)[0]}")`);
    });
    // [text](target) and [text]: target, skipping images' and code's.
    const prose = withoutCode(text);
    const targets = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g), ...prose.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]);
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [pathPart, anchor] = target.split("#");
      const resolved = pathPart === "" ? file : path.normalize(path.join(path.dirname(file), decodeURIComponent(pathPart)));
      if (resolved.startsWith("..") || !existsSync(path.join(root, resolved))) {
        problems.push(`${file}: link to ${target}: no such file`);
        continue;
      }
      if (anchor === undefined || anchor === "") continue;
      if (!resolved.endsWith(".md")) {
        problems.push(`${file}: link to ${target}: an anchor in a file that is not markdown`);
        continue;
      }
      if (!anchorsOf(readFileSync(path.join(root, resolved), "utf8")).has(decodeURIComponent(anchor))) {
        problems.push(`${file}: link to ${target}: no such heading in ${resolved}`);
      }
    }
  }
  const readme = path.join(root, "README.md");
  if (existsSync(readme)) {
    const lines = readFileSync(readme, "utf8").split("\n").length - 1;
    if (lines > README_MAX_LINES) problems.push(`README.md: ${lines} lines, at most ${README_MAX_LINES}: move the detail to docs/`);
  }
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const problems = docProblems();
  for (const problem of problems) console.log(problem);
  console.log(problems.length === 0 ? `${documents().length} documents: links resolve, no story told.` : `${problems.length} problems`);
  process.exit(problems.length === 0 ? 0 : 1);
}
