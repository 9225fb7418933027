import type { TestProject } from 'vitest/node';
import { buildImage } from './podman.js';

// Builds the image once for every deploy test file (the Woodpecker stack comes from the
// harness's own global setup, listed before this one).
export default function setup(_project: TestProject): void {
  buildImage();
}
