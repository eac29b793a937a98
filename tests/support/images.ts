import sharp from "sharp";

/** A real photo-like JPEG or PNG made on the spot, `width`×`height`. */
export async function makeImage(format: "jpeg" | "png", width = 640, height = 400): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#c8a15a"/><stop offset="1" stop-color="#3b2a1e"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 3}" cy="${height / 2}" r="${height / 4}" fill="#efe6d6"/></svg>`;
  const image = sharp(Buffer.from(svg));
  return format === "jpeg" ? image.jpeg({ quality: 80 }).toBuffer() : image.png().toBuffer();
}

/** The same image grown to exactly `size` bytes with junk after its end (decoders ignore it). */
export function padTo(image: Buffer, size: number): Buffer {
  return Buffer.concat([image, Buffer.alloc(size - image.length, 0x41)]);
}
