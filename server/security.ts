import { randomBytes } from "node:crypto";

const NONCE_BYTES = 16;
let pool = Buffer.alloc(0);
let offset = 0;

/**
 * A fresh nonce for each response's inline scripts: 16 bytes from the CSPRNG,
 * drawn from a pool filled 256 nonces at a time (one system call, not one per page).
 */
export function newNonce(): string {
  if (offset + NONCE_BYTES > pool.length) {
    pool = randomBytes(NONCE_BYTES * 256);
    offset = 0;
  }
  offset += NONCE_BYTES;
  return pool.toString("base64", offset - NONCE_BYTES, offset);
}

/** The policy of a page whose inline scripts are the ones `scriptSources` name (a nonce, or their hashes). */
export function contentSecurityPolicy(scriptSources: string[]): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptSources].join(" "),
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join("; ");
}

/** Headers for every response: pages, errors, assets and images (a page from the page cache gets its own policy). */
export function securityHeaders(nonce: string, { https }: { https: boolean }): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Security-Policy": contentSecurityPolicy([`'nonce-${nonce}'`]),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    // Ignored by current browsers (the CSP is what protects); for old ones,
    // mode=block stops the page instead of letting the filter edit it.
    "X-XSS-Protection": "1; mode=block",
    "Cross-Origin-Opener-Policy": "same-origin",
  };
  // Only a site served over HTTPS may ask browsers to keep to it.
  if (https) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

/** Uploaded images, on top of the above: never a document, never scripts, even if opened directly. */
export const IMAGE_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; sandbox",
  "Content-Disposition": "inline",
} as const;
