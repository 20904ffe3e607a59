declare module '@remix-run/node' {
  interface AppLoadContext {
    /** Set by scripts/web-server.ts; absent under the Vite dev server. */
    cspNonce?: string;
    /** The client's IP as Express resolved it (see TRUST_PROXY). */
    clientIp?: string;
  }
}

export {};
