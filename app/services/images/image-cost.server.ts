/**
 * What decoding an image will cost, predicted from its header alone, and
 * the plan the decoder follows so that the prediction holds. The one place
 * for the rule "every accepted image has a bounded, predicted cost"
 * (docs/limits-and-security.md, "What one image may cost"). Pure: numbers in, numbers out.
 *
 * Measured with sharp 0.35 (libvips 8.18), one thread: a vertical shrink
 * holds hundreds of full-width rows, so a wide image is shrunk across first
 * (pass 1, rows streamed from the file) and only then down, turned and
 * mirrored (pass 2, from the narrow result in memory). EXIF orientation is
 * applied last, to the small result, never to the full image.
 */
import { IMAGE_WIDTHS } from "~/lib/images";
import { imageSizeProblem, POST_MESSAGES } from "~/lib/rules";
import type { ImageHeader } from "./image-header.server";

/** The widest stored variant: the decoder's output is this wide (after orientation), or narrower. */
const OUTPUT_WIDTH = IMAGE_WIDTHS.at(-1)!;
/** A very tall image is stored narrower instead, so that no result is taller than this (its cost is its area). */
export const OUTPUT_MAX_HEIGHT = 2 * OUTPUT_WIDTH;

/** Most memory one image's decoding may be predicted to take, beside the idle server (docs/limits-and-security.md, "Limits"). */
export const IMAGE_DECODE_BUDGET_BYTES = 56_000_000;
/** A decoding pass that takes longer is stopped (the image is refused): a few seconds at worst per image. */
export const IMAGE_DECODE_SECONDS = 6;

export type DecodePlan = {
  /** Pass 1 of a PNG: the width to shrink to across (the height kept), or null to keep the width. A JPEG shrinks to width × height at once (on load). */
  across: number | null;
  /** Pass 2: the sides before orientation; equal to pass 1's result when nothing is left to do but turn it. */
  width: number;
  height: number;
  /** Orientation as sharp's operations after a resize apply it: mirror first, then turn clockwise. */
  flop: boolean;
  angle: 0 | 90 | 180 | 270;
  /** The stored image's sides (after orientation). */
  outputWidth: number;
  outputHeight: number;
};

/**
 * EXIF orientation as "mirror, then turn clockwise": the same picture as
 * sharp's autoOrient (turn, then mirror), for all eight values.
 */
const ORIENTATIONS: Record<number, { flop: boolean; angle: DecodePlan["angle"] }> = {
  1: { flop: false, angle: 0 },
  2: { flop: true, angle: 0 },
  3: { flop: false, angle: 180 },
  4: { flop: true, angle: 180 },
  5: { flop: true, angle: 270 },
  6: { flop: false, angle: 90 },
  7: { flop: true, angle: 90 },
  8: { flop: false, angle: 270 },
};

/** The sides the stored image gets (at most 1200 px wide and 2400 px tall once turned upright, never enlarged) and how to get there. */
export function decodePlan({ width, height, orientation }: Pick<ImageHeader, "width" | "height" | "orientation">): DecodePlan {
  const { flop, angle } = ORIENTATIONS[orientation] ?? ORIENTATIONS[1];
  const turned = angle === 90 || angle === 270;
  const [uprightWidth, uprightHeight] = turned ? [height, width] : [width, height];
  const scale = Math.min(1, OUTPUT_WIDTH / uprightWidth, OUTPUT_MAX_HEIGHT / uprightHeight);
  const outputWidth = Math.max(1, Math.round(uprightWidth * scale));
  const outputHeight = Math.max(1, Math.round(uprightHeight * scale));
  const [planWidth, planHeight] = turned ? [outputHeight, outputWidth] : [outputWidth, outputHeight];
  return { across: planWidth < width ? planWidth : null, width: planWidth, height: planHeight, flop, angle, outputWidth, outputHeight };
}

/** Full-width rows a PNG's shrink across holds at once (measured: about 300). */
const ROWS_HELD = 300;
/** Encoding the variants (WebP and JPEG, one after another) holds about three times the 8-bit result (measured). */
const ENCODE_FACTOR = 3;

/** Whether pass 2 has anything to do: shrink a PNG down, or orient. */
export function needsSecondPass(header: Pick<ImageHeader, "type" | "height">, plan: DecodePlan): boolean {
  return (header.type === "png" && plan.height !== header.height) || plan.flop || plan.angle !== 0;
}

/**
 * Peak memory of decoding an image by its plan and encoding its variants,
 * in bytes: what the decoder holds whole (a progressive JPEG's
 * coefficients, an interlaced PNG's pixels), the full-width rows a PNG's
 * shrink across holds (a JPEG shrinks on load instead, in both directions
 * at once), the 8-bit RGBA results of both passes (pass 2's input and
 * output live together) and the encoding. Fitted to what `npm run image-memory`
 * measures for each shape, rounded up.
 */
export function predictedPeakBytes(header: ImageHeader): number {
  const plan = decodePlan(header);
  const png = header.type === "png";
  const rows = png ? ROWS_HELD * header.width * header.channels * (header.bitDepth / 8) : 0;
  const pass1 = png ? (plan.across ?? header.width) * header.height * 4 : plan.width * plan.height * 4;
  const pass2 = needsSecondPass(header, plan) ? plan.width * plan.height * 4 : 0;
  const encode = ENCODE_FACTOR * plan.outputWidth * plan.outputHeight * 4;
  return header.wholeImageBytes + rows + pass1 + pass2 + encode;
}

/** The first rule an image's header breaks (its sides, then its cost), as the message to show, or null. */
export function imageCostProblem(header: ImageHeader): string | null {
  const sizeProblem = imageSizeProblem(header);
  if (sizeProblem) return sizeProblem;
  return predictedPeakBytes(header) > IMAGE_DECODE_BUDGET_BYTES ? POST_MESSAGES.imageTooCostly : null;
}
