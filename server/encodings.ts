/** The encodings the server compresses with, its preference first when a client rates them equally (as the compression middleware). */
export const ENCODINGS = ["br", "gzip", "deflate"] as const;
export type Encoding = (typeof ENCODINGS)[number];

/**
 * Of the `offered` encodings, the one the client's Accept-Encoding rates
 * highest, as the compression middleware chooses: brotli before gzip before
 * deflate when equal; null when the client asks for none of them or rates
 * leaving it uncompressed higher.
 */
export function pickEncoding(header: string | undefined, offered: readonly Encoding[] = ENCODINGS): Encoding | null {
  if (!header) return null;
  const rated = new Map<string, number>();
  for (const part of header.split(",")) {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    rated.set(coding.trim(), q ? Number(q.slice(2)) : 1);
  }
  let best: Encoding | null = null;
  let bestQ = 0;
  for (const coding of offered) {
    const q = rated.get(coding) ?? rated.get("*") ?? 0;
    if (q > bestQ) [best, bestQ] = [coding, q];
  }
  // The client rates leaving it uncompressed higher.
  return best !== null && (rated.get("identity") ?? 0) <= bestQ ? best : null;
}
