import { describe, expect, it } from "vitest";
import { POST_MESSAGES } from "~/lib/rules";
import { decodePlan, IMAGE_DECODE_BUDGET_BYTES, imageCostProblem, predictedPeakBytes } from "~/services/images/image-cost.server";
import { readImageHeader, type ImageHeader } from "~/services/images/image-header.server";
import { jpegHeader, pngHeader } from "../../support/image-bytes";

const png = (width: number, height: number, more: Partial<ImageHeader> = {}): ImageHeader => ({
  type: "png",
  width,
  height,
  bitDepth: 8,
  channels: 3,
  orientation: 1,
  wholeImageBytes: 0,
  ...more,
});

describe("decodePlan", () => {
  it.each([
    // sides, orientation → stored sides (at most 1200 wide and 2400 tall once upright, never enlarged)
    [4000, 3000, 1, 1200, 900],
    [4000, 3000, 6, 1200, 1600],
    [4000, 3000, 8, 1200, 1600],
    [4000, 3000, 3, 1200, 900],
    [300, 200, 1, 300, 200],
    [300, 200, 5, 200, 300],
    [1200, 10_000, 1, 288, 2400],
    [10_000, 400, 6, 96, 2400],
  ])("%i × %i, orientation %i: stored %i × %i", (width, height, orientation, outputWidth, outputHeight) => {
    expect(decodePlan({ width, height, orientation })).toMatchObject({ outputWidth, outputHeight });
  });

  it("shrinks a turned image in its own frame: across to the stored height, then turns it", () => {
    expect(decodePlan({ width: 4000, height: 3000, orientation: 6 })).toEqual({ across: 1600, width: 1600, height: 1200, flop: false, angle: 90, outputWidth: 1200, outputHeight: 1600 });
    expect(decodePlan({ width: 300, height: 200, orientation: 1 })).toMatchObject({ across: null, width: 300, height: 200 });
  });
});

describe("predictedPeakBytes and imageCostProblem", () => {
  const audit = png(10_000, 4_000, { bitDepth: 16, channels: 4, orientation: 8 });

  it("refuses the audit's PNG (10000×4000, 16-bit RGBA, orientation 8) with its own message, before decoding", () => {
    expect(predictedPeakBytes(audit)).toBeGreaterThan(IMAGE_DECODE_BUDGET_BYTES);
    expect(imageCostProblem(audit)).toBe(POST_MESSAGES.imageTooCostly);
  });

  it("counts bit depth, channels, orientation and interlace", () => {
    const plain = png(10_000, 2_000);
    expect(predictedPeakBytes(png(10_000, 2_000, { bitDepth: 16 }))).toBeGreaterThan(predictedPeakBytes(plain));
    expect(predictedPeakBytes(png(10_000, 2_000, { channels: 4 }))).toBeGreaterThan(predictedPeakBytes(plain));
    expect(predictedPeakBytes(png(10_000, 2_000, { orientation: 6 }))).toBeGreaterThan(predictedPeakBytes(plain));
    expect(predictedPeakBytes(readImageHeader(pngHeader(10_000, 1_000, { interlaced: true }))!)).toBeGreaterThan(predictedPeakBytes(png(10_000, 1_000)));
  });

  it("accepts the largest ordinary photos: a 40 MP baseline JPEG, a 12 MP progressive one (a phone photo), a 40 MP 16-bit RGBA PNG upright", () => {
    expect(imageCostProblem(readImageHeader(jpegHeader(10_000, 4_000))!)).toBeNull();
    expect(imageCostProblem(readImageHeader(jpegHeader(10_000, 4_000, { components: [[1, 1], [1, 1], [1, 1]] }))!)).toBeNull();
    expect(imageCostProblem(readImageHeader(jpegHeader(4_032, 3_024, { sof: 0xc2 }))!)).toBeNull();
    expect(imageCostProblem(png(10_000, 4_000, { bitDepth: 16, channels: 4 }))).toBeNull();
    expect(imageCostProblem(png(1_200, 10_000, { channels: 4 }))).toBeNull();
  });

  it("still refuses by the sides first", () => {
    expect(imageCostProblem(png(10_001, 10))).toBe(POST_MESSAGES.imageTooLarge);
    expect(imageCostProblem(readImageHeader(jpegHeader(10_001, 1_000, { sof: 0xc2 }))!)).toBe(POST_MESSAGES.imageTooLarge);
    expect(imageCostProblem(readImageHeader(jpegHeader(7_000, 5_000, { sof: 0xc2 }))!)).toBe(POST_MESSAGES.imageTooLargeWhole);
  });
});
