import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { vanillaExtractPlugin } from '@vanilla-extract/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { prerenderLanding } from './scripts/prerender-landing.ts';

export default defineConfig({
  // The router plugin must run before react() so it can split route code.
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: 'src/routes',
      generatedRouteTree: 'src/routeTree.gen.ts',
    }),
    react(),
    vanillaExtractPlugin(),
    prerenderLanding(),
  ],
  build: {
    outDir: 'dist',
    sourcemap: true,
    manifest: true,
    rolldownOptions: {
      output: {
        // What every page loads first goes into two chunks, its libraries and its own code, instead of
        // the dozen small shared chunks automatic splitting made of it: 8 kB gzip less and fewer requests.
        // Only modules the entry imports statically ($initial) are grouped; lazy code stays split, and
        // the entry module (index.html → main.tsx) stays the entry chunk.
        codeSplitting: {
          groups: [
            { name: 'vendor', tags: ['$initial'], test: /node_modules[\\/]/ },
            {
              name: 'app',
              tags: ['$initial'],
              test: (id) => !/node_modules[\\/]|index\.html|src[\\/]main\.tsx$/.test(id),
            },
          ],
        },
      },
    },
  },
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
