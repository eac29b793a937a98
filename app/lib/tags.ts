import tagList from "../../public/tags.json";

/** The 30 fixed tags, in the spec's order; public/tags.json is the one source. */
export const TAGS: readonly string[] = tagList;

const tagSet = new Set(TAGS);

export function isTag(value: unknown): value is string {
  return typeof value === "string" && tagSet.has(value);
}
