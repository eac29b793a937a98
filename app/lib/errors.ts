import { isRouteErrorResponse } from "@remix-run/react";
import { BUSY_MESSAGE } from "./rules";

/** What a visitor is told when a page fails: never a stack trace (those stay in the server log). */
export function errorSummary(error: unknown): { title: string; text: string } {
  if (!isRouteErrorResponse(error)) return FAILED;
  // A refusal says why in its `error` (a fault of the storage: storage-fault.server.ts).
  const said = typeof error.data?.error === "string" ? (error.data.error as string) : null;
  if (error.status === 404) return { title: "Stránka sa nenašla", text: "Stránka, ktorú hľadáte, neexistuje alebo bola odstránená." };
  if (error.status === 507 && said) return { title: "Na serveri došlo miesto", text: said };
  if (error.status === 503) return said ? { title: "Server teraz nemôže ukladať", text: said } : { title: "Server je preťažený", text: BUSY_MESSAGE };
  if (error.status < 500) return { title: "Požiadavku sa nepodarilo spracovať", text: said ?? "Skontrolujte, prosím, čo ste odoslali." };
  return FAILED;
}

const FAILED = { title: "Unexpected Application Error!", text: "Niečo sa pokazilo. Skúste to, prosím, o\u00a0chvíľu znova." };
