/** `length` characters of Slovak-looking words, different for each seed, the same on every run. */
export function unrelatedText(seed: number, length: number): string {
  const syllables = ["ko", "ši", "ce", "bra", "ti", "sla", "va", "ny", "tra", "va", "dej", "iny", "mo", "ra", "va", "hu", "sit", "ské", "krá", "ľov", "stvo", "uh", "or"];
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31);
  const words: string[] = [];
  let size = 0;
  while (size < length) {
    let word = "";
    for (let n = 1 + (next() % 4); n > 0; n--) word += syllables[next() % syllables.length];
    if (next() % 9 === 0) word += next() % 2 ? "," : ".";
    words.push(word);
    size += word.length + 1;
  }
  return words.join(" ").slice(0, length);
}
