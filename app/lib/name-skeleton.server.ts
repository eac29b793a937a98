import unhomoglyph from "unhomoglyph";

/** Whitespace, and what shows as nothing or as a space: names differing only in these look the same. */
const BLANK = /[\p{White_Space}\p{Default_Ignorable_Code_Point}\u2800]/gu;

const skeleton = (text: string) => unhomoglyph(text).normalize("NFD");
const tidy = (text: string) => text.toLowerCase().replace(BLANK, "");

/**
 * What a display name looks like, for telling whether two names could be
 * taken for each other: two skeletons per Unicode UTS #39 (NFD, each
 * character replaced by its prototype from the confusables data, NFD
 * again), without blanks, after NFKD so that compatibility forms
 * (fullwidth "Ａ", ligatures, superscripts) meet their letters too.
 *
 * - `folded`: case folded first, so "ADMIN" meets "admin" (as upper case,
 *   "I" would be taken for "l" and "ADMIN" for "ADMlN").
 * - `cased`: the confusables first, then case folded, so capitals that
 *   look alike across scripts meet: a Greek "Κarol" or "Μaria" is "Karol"
 *   or "Maria" (lower-cased first, "κ" and "μ" would look like nothing
 *   Latin).
 *
 * Two names look alike when either skeleton is the same. "Ľudovít" and
 * "Ludovit" do not (the marks stay). Never shown to anyone: "m" becomes "rn".
 * The confusables data is `unhomoglyph`'s copy of Unicode's confusables.txt.
 */
export function nameSkeletons(name: string): { folded: string; cased: string } {
  const compatible = name.normalize("NFKD");
  return { folded: tidy(skeleton(compatible.toLowerCase())), cased: tidy(skeleton(skeleton(compatible).toLowerCase())) };
}
