import { isRouteErrorResponse } from "@remix-run/react";
import { BUSY_MESSAGE } from "./rules";

/** What a visitor is told when a page fails: never a stack trace (those stay in the server log). */
export function errorSummary(error: unknown): { title: string; text: string } {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return { title: "Stránka sa nenašla", text: "Adresa, ktorú hľadáte, neexistuje alebo bola odstránená." };
  }
  if (isRouteErrorResponse(error) && error.status === 503) return { title: "Server je preťažený", text: BUSY_MESSAGE };
  if (isRouteErrorResponse(error) && error.status < 500) {
    const reason = typeof error.data?.error === "string" ? error.data.error : "Skontrolujte, prosím, čo ste odoslali.";
    return { title: "Požiadavku sa nepodarilo spracovať", text: reason };
  }
  return { title: "Unexpected Application Error!", text: "Niečo sa pokazilo. Skúste to, prosím, o chvíľu znova." };
}
