import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// `npm run dev` (and `vite preview`) forward the API to a running `ddz serve`: DDZ_SERVER=host:port.
const server = process.env.DDZ_SERVER ?? '127.0.0.1:8080';

export default defineConfig({
  plugins: [svelte()],
  build: { target: 'es2022', outDir: 'dist', emptyOutDir: true },
  server: {
    proxy: {
      '/api': `http://${server}`,
      '/ws': { target: `ws://${server}`, ws: true },
    },
  },
});
