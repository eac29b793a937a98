// Generated articles written straight into the app's database with
// better-sqlite3: one author, N posts with 1–4 unevenly spread tags, and
// images taken from a pool of stored images.
import Database from "better-sqlite3";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "./app-server.js";

export const COMMON_TAG = "Dejiny Slovenska";
export const RARE_TAG = "Vietnamská vojna";
const RARE_TAG_POSTS = 5;
const MAX_TAGS_PER_POST = 4;
const EXCERPT_LENGTH = 160;
const MINUTE = 60_000;

/** A seeded pseudo-random generator (mulberry32), so every run builds the same data. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (random, items) => items[Math.floor(random() * items.length)];

/**
 * How often each tag is drawn: COMMON_TAG on ~1/3 of the posts, "Druhá svetová
 * vojna" on ~1/5, the rest falling off (≈12 % down to ≈1 %), RARE_TAG never
 * (it is put on exactly RARE_TAG_POSTS posts).
 */
function tagWeights() {
  const all = JSON.parse(readFileSync(path.join(projectRoot, "public/tags.json"), "utf8"));
  for (const tag of [COMMON_TAG, RARE_TAG, "Druhá svetová vojna"]) {
    if (!all.includes(tag)) throw new Error(`tag "${tag}" is not in public/tags.json`);
  }
  const others = all.filter((tag) => ![COMMON_TAG, RARE_TAG, "Druhá svetová vojna"].includes(tag));
  return [
    { tag: COMMON_TAG, p: 1 / 3 },
    { tag: "Druhá svetová vojna", p: 1 / 5 },
    ...others.map((tag, i) => ({ tag, p: 0.12 / (1 + i / 2) })),
  ];
}

function tagsForPost(random, weights, rare) {
  const drawn = weights.filter(({ p }) => random() < p).map(({ tag }) => tag);
  if (drawn.length === 0) drawn.push(pick(random, weights.slice(2)).tag);
  if (rare) drawn.unshift(RARE_TAG);
  return drawn.slice(0, MAX_TAGS_PER_POST);
}

const PLACES = ["Nitre", "Bratislave", "Košiciach", "Trnave", "Banskej Štiavnici", "Kremnici", "Levoči", "Žiline", "Komárne", "Trenčíne"];
const EVENTS = ["Bitka pri", "Povstanie v", "Korunovácia v", "Mier v", "Obliehanie hradu pri", "Snem v", "Požiar v", "Založenie školy v"];
const SENTENCES = [
  "Kronikári zaznamenali udalosť až o niekoľko desaťročí neskôr, preto sa údaje v prameňoch líšia.",
  "Mesto bolo v tom čase dôležitou križovatkou obchodných ciest medzi severom a juhom.",
  "Historici dnes spochybňujú najmä počty vojakov, ktoré uvádzajú dobové opisy.",
  "Archeologické nálezy z posledných rokov priniesli nový pohľad na každodenný život obyvateľov.",
  "Panovník potreboval peniaze na vojnu, a tak zvýšil dane a razil nové mince.",
  "Miestni remeselníci sa združovali v cechoch, ktoré prísne strážili kvalitu výrobkov.",
  "Po skončení bojov sa krajina dlho spamätávala z hladu a chorôb.",
  "Mýtus o hrdinskom obrancovi vznikol až v devätnástom storočí počas národného obrodenia.",
  "Listiny uložené v archíve ukazujú, že spor sa viedol predovšetkým o pôdu a mýto.",
  "Nová stavba mala predviesť moc mesta aj jeho bohatstvo cudzím kupcom.",
  "Učitelia dnes pri výklade tejto udalosti zdôrazňujú prácu s viacerými prameňmi.",
  "Správa o víťazstve sa šírila pomaly, poslovia potrebovali na cestu niekoľko dní.",
];

/** A title with the year it is about, and the period an author would have typed for it (every seventh a precise date). */
function titleFor(random) {
  const year = 800 + Math.floor(random() * 1190);
  const title = `${pick(random, EVENTS)} ${pick(random, PLACES)} (${year})`;
  if (random() >= 1 / 7) return { title, period: String(year), periodStart: year * 10_000, periodDay: null };
  const month = 1 + Math.floor(random() * 12);
  const day = 1 + Math.floor(random() * 28);
  return { title, period: `${day}. ${month}. ${year}`, periodStart: year * 10_000 + month * 100 + day, periodDay: month * 100 + day };
}

/** Two or three paragraphs of 2–3 sentences, stored as the app stores typed text (newlines as <br/>). */
function contentFor(random) {
  const paragraphs = Array.from({ length: 2 + Math.floor(random() * 2) }, () =>
    Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(random, SENTENCES)).join(" "),
  );
  return paragraphs.join("<br/><br/>");
}

/** Plain text of the content, cut on a word boundary to at most EXCERPT_LENGTH characters. */
function excerptOf(content) {
  const text = content.replace(/<br\/>/g, " ").replace(/\s+/g, " ").trim();
  if (text.length <= EXCERPT_LENGTH) return text;
  const cut = text.slice(0, EXCERPT_LENGTH - 1);
  return `${cut.slice(0, cut.lastIndexOf(" ")).replace(/[\s,.;:–-]+$/, "")}…`;
}

/**
 * Insert one author and `count` posts (newest first, ~10 minutes apart) in one
 * transaction. Returns { samplePost: { id, image } from the middle of the table, tagCounts }.
 */
export function insertPosts(databasePath, { count, images, random, now = Date.now() }) {
  const db = new Database(databasePath);
  try {
    const insertUser = db.prepare("INSERT INTO users (id, display_name, email, password_hash, is_admin, created_at) VALUES (?, ?, ?, NULL, 0, ?)");
    const insertPost = db.prepare(
      "INSERT INTO posts (id, title, content, excerpt, image, image_width, image_height, author_id, created_at, updated_at, period, period_start, period_day) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const insertTag = db.prepare("INSERT INTO post_tags (post_id, tag, created_at) VALUES (?, ?, ?)");
    const weights = tagWeights();
    const rareAt = new Set(Array.from({ length: RARE_TAG_POSTS }, (_, j) => Math.floor(((j + 0.5) * count) / RARE_TAG_POSTS)));
    const tagCounts = {};
    let samplePost;

    db.transaction(() => {
      const authorId = randomBytes(12).toString("base64url");
      insertUser.run(authorId, "Redakcia Bench", "bench-author@dejiny.invalid", now - count * 10 * MINUTE);
      for (let i = 0; i < count; i++) {
        const id = randomBytes(9).toString("base64url");
        const createdAt = now - i * 10 * MINUTE - Math.floor(random() * 5 * MINUTE);
        const content = contentFor(random);
        const image = pick(random, images);
        const { title, period, periodStart, periodDay } = titleFor(random);
        insertPost.run(id, title, content, excerptOf(content), image.key, image.width, image.height, authorId, createdAt, createdAt, period, periodStart, periodDay);
        for (const tag of tagsForPost(random, weights, rareAt.has(i))) {
          insertTag.run(id, tag, createdAt);
          tagCounts[tag] = (tagCounts[tag] ?? 0) + 1;
        }
        if (i === Math.floor(count / 2)) samplePost = { id, image: image.key, periodStart };
      }
    })();
    return { samplePost, tagCounts };
  } finally {
    db.close();
  }
}
