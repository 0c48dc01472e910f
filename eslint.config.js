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
    // Only storage touches the tables (DESIGN.md): elsewhere in a component no database client, Prisma namespace or
    // transaction type, no lib/db helper, no query on a client; a component's index.ts only hands deps.prisma to its storage.
    files: ['subgraphs/**/*.ts'],
    ignores: ['subgraphs/**/storage.ts', 'subgraphs/**/storage/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/generated/prisma/client.js'],
              importNames: ['PrismaClient', 'Prisma'],
              message: "Only a storage file touches the database: take the area's store instead.",
            },
            {
              group: ['**/lib/db/*.js', '!**/lib/db/errors.js', '!**/lib/db/like.js'],
              allowTypeImports: true,
              message: 'lib/db helpers (locks, raw SQL, unique violations, triggers) are for storage files only.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^\\$(transaction|queryRaw|executeRaw|queryRawUnsafe|executeRawUnsafe)$/]',
          message: 'Only a storage file runs SQL or transactions on the database.',
        },
        { selector: "MemberExpression[object.type='MemberExpression'][object.property.name='prisma']", message: 'Only a storage file queries the database.' },
        {
          selector: "MemberExpression[object.type='Identifier'][object.name=/^(prisma|tx)$/][property.name=/^[a-z]/]",
          message: 'Only a storage file queries the database.',
        },
      ],
    },
  },
  {
    // No source file over 300 lines: past that, a service splits into <verb>-<noun>.ts use cases (DESIGN.md).
    files: ['subgraphs/**/*.ts', 'lib/**/*.ts', 'gateway/**/*.ts', 'rest-compat/**/*.ts', 'scripts/**/*.ts', 'tools/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }] },
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
