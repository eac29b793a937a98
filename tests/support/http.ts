import Database from "better-sqlite3";
import { parse, type HTMLElement } from "node-html-parser";

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
