const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
/** Characters XML 1.0 does not allow at all, not even escaped (C0 controls but tab and new lines, U+FFFE/FFFF, lone surrogates). */
// eslint-disable-next-line no-control-regex -- these control characters are exactly what must go
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text as XML text or attribute value: escaped, and without what no XML document may contain (a feed reader would reject it whole). */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML, "").replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);
}
