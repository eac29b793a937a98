import Database from "better-sqlite3";
import { parse, type HTMLElement } from "node-html-parser";
import { expect } from "vitest";

export async function getPage(url: string, init?: RequestInit): Promise<{ response: Response; html: string; doc: HTMLElement }> {
  const response = await fetch(url, { redirect: "manual", ...init });
  const html = await response.text();
  return { response, html, doc: parse(html) };
}

/** A look into the server's database (read-only unless `write`), to compare pages with the data or set up a case. */
export function readDatabase<T>(databasePath: string, query: (db: Database.Database) => T, write = false): T {
  const db = new Database(databasePath, { readonly: !write, fileMustExist: true });
  try {
    return query(db);
  } finally {
    db.close();
  }
}

/** What no visitor may ever see in a page: stack traces and server paths. */
export const INTERNALS = /\bat [\w.<>]+ \(|node_modules|\/work\/|build\/server|file:\/\//;

/** A form refused for one field: 400, the message shown, the field marked and showing what was typed. */
export function expectFieldRefused(reply: { response: Response; doc: HTMLElement }, field: string, message: string, typed: string): void {
  expect(reply.response.status).toBe(400);
  expect(reply.doc.querySelector(".form-error")?.text).toBe(message);
  expect(reply.doc.querySelector(`#field-${field}`)?.getAttribute("aria-invalid")).toBe("true");
  expect(reply.doc.querySelector(`#field-${field}`)?.getAttribute("value")).toBe(typed);
}

/** A page's own status line ("Meno je zmenené."): not the region of the word after an article's action (ActionNotice), which every page has. */
export function pageStatus(doc: HTMLElement): string | undefined {
  return doc.querySelector('[role="status"]:not(.action-notice)')?.text;
}
