declare module "@remix-run/node" {
  /** What the HTTP server (server/index.ts) hands every loader and action. */
  interface AppLoadContext {
    /** The client's address: the socket's, or the trusted proxy's header when TRUST_PROXY is set. */
    clientAddress: string;
    /** This response's Content-Security-Policy nonce, for the inline scripts. */
    cspNonce: string;
  }
}

export {};
