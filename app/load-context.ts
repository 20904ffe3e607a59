declare module '@remix-run/node' {
  interface AppLoadContext {
    /** Set by scripts/web-server.ts; absent under the Vite dev server. */
    cspNonce?: string;
  }
}

export {};
