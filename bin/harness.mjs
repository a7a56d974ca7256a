#!/usr/bin/env node
// `harness` on PATH (npx harness …): load the TypeScript CLI through tsx's loader.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
