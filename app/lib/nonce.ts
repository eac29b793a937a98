import { createContext, useContext } from "react";

/** The response's CSP nonce while rendering on the server; empty in the browser, which hides it. */
export const NonceContext = createContext("");

export function useNonce(): string {
  return useContext(NonceContext);
}
