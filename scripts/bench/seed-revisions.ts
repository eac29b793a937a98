// Gives one article of a bench database `count` revisions through the app's
// own write of an edit (the posts model's updatePost, which records each
// revision in the transaction that writes the article), as the site's edits do.
// Each edit corrects a year in one of 20 sentences; every 20th adds a sentence,
// so the first and last revisions differ by about 350 words: a real word diff,
// under the comparison's cap. Prints the first and last revisions' ids (JSON).
//   DATABASE_PATH=<database> vite-node scripts/bench/seed-revisions.ts <post id> <count>
import { sqlite } from "~/db/connection.server";
import { excerptOf } from "~/lib/text/content-text";
import { getPost, updatePost } from "~/models/posts.server";

const [postId, countArg] = process.argv.slice(2);
const count = Number(countArg);
if (!postId || !Number.isInteger(count) || count < 2) throw new Error("usage: DATABASE_PATH=… seed-revisions.ts <post id> <count ≥ 2>");

const SENTENCES = [
  "Kronikári zaznamenali udalosť až o niekoľko desaťročí neskôr",
  "Mesto bolo vtedy dôležitou križovatkou obchodných ciest",
  "Historici spochybňujú najmä počty vojakov z dobových opisov",
  "Archeologické nálezy priniesli nový pohľad na každodenný život",
  "Panovník zvýšil dane a razil nové mince",
];
const post = getPost(postId);
if (!post) throw new Error(`no post ${postId}`);
const editorId = post.authorId;
const years = Array.from({ length: 20 }, (_, i) => 1000 + i);
const added: string[] = [];
const contentAt = () =>
  [...years.map((year, i) => `${SENTENCES[i % SENTENCES.length]} (rok ${year}).`), ...added].join(" ").replace(/(.{400,}?\. )/g, "$1<br/><br/>");

// Revision 1: the article as the bench inserted it (its rows bypass the model); then the edits.
sqlite.transaction(() => {
  for (let n = 1; n <= count; n++) {
    if (n > 1) years[n % 20] += 1;
    if (n > 1 && n % 20 === 0) added.push(`Doplnok ${n / 20}: ${SENTENCES[n % SENTENCES.length].toLowerCase()} podľa novšieho prameňa.`);
    const content = n === 1 ? post.content : contentAt();
    updatePost(postId, { title: post.title, content, sources: [], excerpt: excerptOf(content) }, { editorId, summary: n === 1 ? "" : `Opravený rok vo vete ${n % 20}` });
  }
})();
const ids = sqlite.prepare("SELECT id FROM revisions WHERE post_id = ? AND number IN (1, ?) ORDER BY number").pluck().all(postId, count) as string[];
console.log(JSON.stringify({ first: ids[0], last: ids[1] }));
sqlite.close();
