import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The pure core: model, rules, normalization, serialization. I/O is passed in, never imported. */
const PURE = [
  'src/model/**',
  'src/rules/**',
  'src/normalize/**',
  'src/write/**',
  'src/errors.ts',
  'src/state/store.ts',
  'src/state/time.ts',
  'src/sources/lines.ts',
  'src/sources/kind.ts',
  'src/sources/site-url.ts',
  'src/html/**',
  'src/read/xml/**',
  'src/read/decode.ts',
  'src/read/types.ts',
  'src/sources/jsonl.ts',
  'src/sources/text.ts',
  'src/cli/report.ts',
  'src/http/retry.ts',
  'src/http/redirect.ts',
  'src/http/types.ts',
  'src/http/limit.ts',
  'src/robots/**',
  'src/cli/command.ts',
  'src/cli/commands/catalog.ts',
  'src/cli/tree.ts',
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'example/out/**', '.bench/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { URL: 'readonly', TextDecoder: 'readonly', TextEncoder: 'readonly', console: 'readonly', process: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
      'no-console': 'error',
      // XML (R2) and URI (R10) rules are about control characters.
      'no-control-regex': 'off',
    },
  },
  {
    files: PURE,
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*', 'fs', 'path', 'zlib', 'stream', 'http', 'https'], message: 'The core is pure: take I/O as a parameter and keep node:* in src/publish, src/sources or src/cli.' }] }],
      'no-restricted-globals': ['error', { name: 'process', message: 'The core takes its clock, environment and I/O as parameters.' }, { name: 'Buffer', message: 'Use Uint8Array in the core.' }],
    },
  },
  {
    files: ['test/**', 'bench/**', 'src/bin.ts'],
    rules: { 'no-console': 'off' },
  },
);
