import type { HarnessInfo } from './stack.js';

// global-setup.ts provides the running stack's details under this key; test files read
// them with inject('woodpecker') (see fixtures.ts harnessInfo()).
declare module 'vitest' {
  export interface ProvidedContext {
    woodpecker: HarnessInfo;
  }
}

export {};
