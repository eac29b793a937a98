import Database from "better-sqlite3";
import { parse, type HTMLElement } from "node-html-parser";

export async function getPage(url: string, init?: RequestInit): Promise<{ response: Response; html: string; doc: HTMLElement }> {
  const response = await fetch(url, { redirect: "manual", ...init });
  const html = await response.text();
  return { response, html, doc: parse(html) };
}

/** A read-only look into the server's database, to compare pages with the data. */
export function readDatabase<T>(databasePath: string, query: (db: Database.Database) => T): T {
  const db = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    return query(db);
  } finally {
    db.close();
  }
}

/** What no visitor may ever see in a page: stack traces and server paths. */
export const INTERNALS = /\bat [\w.<>]+ \(|node_modules|\/work\/|build\/server|file:\/\//;
