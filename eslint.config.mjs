import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'coverage/**',
      'bench/results/**',
      'libs/grpc/src/generated/**',
      'libs/sdk/src/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/no-require-imports': 'off',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // The OAuth engine is plain TypeScript: frameworks and storage wire it from the outside.
    files: ['libs/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@nestjs/*'], message: 'libs/domain stays free of NestJS; wire it in an app.' },
            { group: ['typeorm', 'typeorm/*'], message: 'Storage belongs in libs/persistence.' },
            {
              group: ['fastify', 'fastify/*', '@fastify/*'],
              message: 'HTTP belongs in libs/http or an app.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['scripts/**', 'bench/**', 'test/**', '**/*.spec.ts', '**/*.medium-spec.ts'],
    rules: { 'no-console': 'off' },
  },
);
