import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';

// `npm run dev` (and `vite preview`) forward the API to a running `ddz serve`: DDZ_SERVER=host:port.
const server = process.env.DDZ_SERVER ?? '127.0.0.1:8080';

export default defineConfig({
  plugins: [
    svelte(),
    // The app installs (docs/client.md, "The installed app"): a web manifest, and a service worker that keeps the
    // page, its code and the engine (with the bots, for Play vs 2 Bots offline) so that it opens without the
    // server. The server's paths are never cached: they are the server's to answer.
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: 'script-defer',
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        name: 'Dou Dizhu 斗地主',
        short_name: 'Dou Dizhu',
        description: 'Fight the Landlord: play against bots at once, with friends, or with anyone.',
        lang: 'en',
        start_url: '/',
        scope: '/',
        // Installed, it opens full screen and sideways, as the game is held.
        display: 'fullscreen',
        display_override: ['fullscreen', 'standalone'],
        orientation: 'landscape',
        background_color: '#0b3d24',
        theme_color: '#0b3d24',
        categories: ['games'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/icons/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,wasm,svg,png,webmanifest}'],
        // The engine with the bots is the biggest file.
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/ws/, /^\/metrics/, /^\/healthz/, /^\/readyz/],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
  ],
  build: { target: 'es2022', outDir: 'dist', emptyOutDir: true },
  server: {
    proxy: {
      '/api': `http://${server}`,
      '/ws': { target: `ws://${server}`, ws: true },
    },
  },
});
