import { Transform } from "node:stream";

/** React's server renderer fills chunks of this many bytes. */
const REACT_VIEW_SIZE = 2048;

/**
 * A stream for React's HTML that drops the zero bytes React 18 leaves at the
 * end of a full chunk when the next character (any Slovak letter with a
 * diacritic) does not fit in it: the whole 2 kB buffer is sent, padding
 * included (react#24985, react#31134; fixed only in React 19). A zero byte
 * is never part of the page, so none at a chunk's end is lost.
 */
export function htmlStream(): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let end = chunk.length;
      if (end === REACT_VIEW_SIZE) while (end > 0 && end > REACT_VIEW_SIZE - 3 && chunk[end - 1] === 0) end--;
      done(null, end === chunk.length ? chunk : chunk.subarray(0, end));
    },
  });
}
