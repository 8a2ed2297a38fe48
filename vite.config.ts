import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  // The router plugin must run before react() so it can split route code.
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true, routesDirectory: 'src/routes', generatedRouteTree: 'src/routeTree.gen.ts' }),
    react(),
    vanillaExtractPlugin(),
  ],
  build: { outDir: 'dist', sourcemap: true, manifest: true },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/feedback': 'http://localhost:3000',
      '/socket': { target: 'ws://localhost:3000', ws: true },
      '/health': 'http://localhost:3000',
      '/ready': 'http://localhost:3000',
    },
  },
});
