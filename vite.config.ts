import { vitePlugin as remix } from '@remix-run/dev';
import { defineConfig } from 'vite';
import tsconfigPaths from 'vite-tsconfig-paths';
import remixConfig from './remix.config.js';

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  server: { port: 3000 },
  build: {
    target: 'es2022',
    rollupOptions: {
      onwarn(warning, warn) {
        // Remix makes every route an entry of the browser build (its manifest names a module for
        // each); a resource route (an /api route, a webhook, a file download) has no browser
        // code, so its chunk is empty by design. One warning per such route said nothing that
        // needs doing.
        if (warning.code === 'EMPTY_BUNDLE') return;
        warn(warning);
      },
    },
  },
  plugins: [remix(remixConfig), tsconfigPaths()],
});
