import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'generated/', 'data/', 'coverage/', '.tools/', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        fetch: 'readonly',
        URL: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The REST layer translates envelopes: of a component (or area) it imports only the declaration, the inputs and the
    // errors; beyond its own files, only lib/ and the generated code. A rule it needs lives in the component's inputs.
    files: ['rest-compat/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/subgraphs/**/*.js', '!**/index.js', '!**/inputs.js', '!**/errors.js'],
              message: "REST imports a component's index, inputs or errors only: move the wire parser it needs to the component's inputs.ts.",
            },
            { group: ['**/gateway/**', '**/scripts/**', '**/tools/**', '**/test/**'], message: 'REST imports its own files, lib/ and generated/ only.' },
          ],
        },
      ],
    },
  },
  {
    // Tests read the platform's JSON answers untyped and assert on them: the no-unsafe family stays in the product.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
);
