import { Transform } from "node:stream";

/** React's server renderer fills chunks of this many bytes. */
const REACT_VIEW_SIZE = 2048;
/** The document's end as React 18 writes it: with the shell, before what it streams after it. */
const DOCUMENT_END = Buffer.from("</body></html>");

/**
 * A stream for React's HTML that:
 *
 * - drops the zero bytes React 18 leaves at the end of a full chunk when the
 *   next character (any Slovak letter with a diacritic) does not fit in it:
 *   the whole 2 kB buffer is sent, padding included (react#24985,
 *   react#31134; fixed only in React 19). A zero byte is never part of the
 *   page, so none at a chunk's end is lost;
 * - passes on what React wrote in one turn of the event loop as one chunk
 *   (a whole page here: no part of one waits for data). In 2 kB chunks, each
 *   went on its own through the web stream, Express and the compression
 *   stream, which handed each to a zlib thread and back: under load a page's
 *   compression stream (about 250 kB of zlib's memory each) stayed open for
 *   many turns, and 80 at once held 22 MB;
 * - moves `</body></html>` to the end: React 18 writes it with the shell,
 *   and what it streams later (Remix's data scripts) came after it, which
 *   is invalid HTML ("stray start tag"; browsers put it into the body
 *   anyway, so the page's DOM is the same; React 19 holds it back
 *   itself). The sequence is React's own: React escapes "<" in text and
 *   attributes, Remix in its inline scripts.
 */
export function htmlStream(): Transform {
  let waiting: Buffer[] = [];
  let passOnScheduled = false;
  let endHeld = false;
  const passOn = () => {
    passOnScheduled = false;
    if (waiting.length === 0) return;
    let chunk = waiting.length === 1 ? waiting[0] : Buffer.concat(waiting);
    waiting = [];
    const end = endHeld ? -1 : chunk.indexOf(DOCUMENT_END);
    if (end !== -1) {
      endHeld = true;
      chunk = Buffer.concat([chunk.subarray(0, end), chunk.subarray(end + DOCUMENT_END.length)]);
    }
    if (chunk.length > 0) stream.push(chunk);
  };
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let end = chunk.length;
      if (end === REACT_VIEW_SIZE) while (end > 0 && end > REACT_VIEW_SIZE - 3 && chunk[end - 1] === 0) end--;
      waiting.push(end === chunk.length ? chunk : chunk.subarray(0, end));
      if (!passOnScheduled) {
        passOnScheduled = true;
        setImmediate(passOn);
      }
      done();
    },
    flush(done) {
      passOn();
      if (endHeld) stream.push(DOCUMENT_END);
      done();
    },
  });
  return stream;
}
