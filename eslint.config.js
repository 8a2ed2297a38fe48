import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { importBoundaries } from './scripts/eslint-import-boundaries.js';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      '.data',
      '.tmp',
      'coverage',
      'openapi/schema.d.ts',
      'src/routeTree.gen.ts',
      'server/db/migrations',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks, atelier: { rules: { 'import-boundaries': importBoundaries } } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'atelier/import-boundaries': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
);
