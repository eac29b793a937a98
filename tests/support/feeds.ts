import FeedParser from "feedparser";
import { Readable } from "node:stream";

export type ParsedFeed = { meta: FeedParser.Meta; items: FeedParser.Item[] };

/** A feed as a real feed reader reads it (feedparser, strict XML). */
export function parseFeed(xml: string): Promise<ParsedFeed> {
  return new Promise((resolve, reject) => {
    const parser = new FeedParser({ strict: true });
    const items: FeedParser.Item[] = [];
    parser.on("error", reject);
    parser.on("readable", () => {
      for (let item = parser.read(); item; item = parser.read()) items.push(item);
    });
    parser.on("end", () => resolve({ meta: parser.meta, items }));
    Readable.from([xml]).pipe(parser);
  });
}
