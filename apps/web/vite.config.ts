import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Everything is bundled (no CDN): the gateway serves dist/ at `/`, hashed assets under /assets.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    chunkSizeWarningLimit: 600,
  },
  server: {
    // `npm run dev:web`: the gateway (npm run dev, port 3000) answers the API.
    proxy: { '/graphql': 'http://localhost:3000' },
  },
});
