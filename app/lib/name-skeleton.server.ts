import unhomoglyph from "unhomoglyph";

/** Whitespace, and what shows as nothing or as a space: names differing only in these look the same. */
const BLANK = /[\p{White_Space}\p{Default_Ignorable_Code_Point}\u2800]/gu;

/**
 * What a display name looks like, for telling whether two names could be
 * taken for each other: its skeleton per Unicode UTS #39 (NFD, each
 * character replaced by its prototype from the confusables data, NFD
 * again), case-folded and without blanks. The first step is NFKD, so that
 * compatibility forms (fullwidth "Ａ", ligatures, superscripts) meet their
 * letters too. "Admin", "admin", "Аdmin"
 * (Cyrillic А) and "Ad min" share one; "Ľudovít" and "Ludovit" do not
 * (the marks stay). Never shown to anyone: "m" becomes "rn".
 *
 * The confusables data is `unhomoglyph`'s copy of Unicode's confusables.txt.
 * Case is folded first, so "ADMIN" meets "admin"; the price: a capital
 * that looks like another letter once lower-cased is compared as the small
 * letter ("Ivan" and "lvan" stay apart, as do a Cherokee "Ꭺ" and "A").
 */
export function nameSkeleton(name: string): string {
  return unhomoglyph(name.normalize("NFKD").toLowerCase()).normalize("NFD").toLowerCase().replace(BLANK, "");
}
