import { toStoredContent } from "~/services/articles/content.server";
const N = 30_000;
const fill = (unit: string) => unit.repeat(Math.ceil(N / unit.length)).slice(0, N);
const cases: Record<string, string> = {
  plain: fill("Veľká Morava bola štát. "),
  emphasisRuns: fill("*a **b "),
  emphasisClosed: fill("*a* "),
  strongNested: fill("***a*** "),
  underscores: fill("_a __b ___c "),
  brackets: fill("[a"),
  bracketsClosed: fill("[a](https://x.sk/) "),
  linkRefs: fill("[a][b] "),
  backticks: fill("`a ``b "),
  quotesDeep: fill(">".repeat(30) + " a\n\n"),
  quotesMixed: fill("> - ".repeat(10) + "a\n\n"),
  quotes20: fill(">".repeat(20) + " a\n\n"),
  quotes20lines: fill(">".repeat(20) + " a\n"),
  listsIndented: Array.from({ length: 21 }, (_, i) => " ".repeat(2 * i) + "- a").join("\n").repeat(40).slice(0, N),
  listsDeep: fill("- ".repeat(30) + "a\n"),
  listsMany: fill("- a\n"),
  orderedMany: fill("1. a\n"),
  headings: fill("## a\n"),
  autolinks: fill("<https://x.sk/a> "),
  entities: fill("&amp;&#1;&#x41; "),
  lessThan: fill("<a <b <c "),
  newlines: "\n".repeat(N),
  breaksText: fill("a\n"),
  tables: fill("| a | b |\n|---|---|\n"),
  backslashes: fill("\\*\\_\\["),
  mixed: fill("> - **[a](https://x.sk/)** *b* `c`\n"),
};
for (const [name, text] of Object.entries(cases)) {
  const times: number[] = [];
  let out = "";
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    try { out = await toStoredContent(text); } catch (e) { out = `ERR ${(e as Error).message} ${(e as Error).cause}`; }
    times.push(performance.now() - t);
  }
  console.log(name.padEnd(16), times.map((t) => t.toFixed(0).padStart(5)).join(" "), "ms; stored", Buffer.byteLength(out), "bytes; tags", (out.match(/</g) ?? []).length, out.startsWith("ERR") ? out.slice(0, 120) : "");
}
process.exit(0);
