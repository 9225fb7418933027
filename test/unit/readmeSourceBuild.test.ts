// What the README says a first source build of Woodpecker costs, said once and added up
// right: the time of a first build (the demo's table and the test section state the same
// measured figure, not "about two minutes" beside "612 s"), and the Go caches it keeps,
// whose totals are the sums of the parts the build's last line prints.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').replace(
  /\s+/g,
  ' ',
);

const megabytes = (amount: string, unit: string) => Number(amount) * (unit === 'GB' ? 1000 : 1);

describe("README's source-build figures", () => {
  it('states one measured time for a first source build of the pin, wherever it says how long', () => {
    const stated = [...readme.matchAll(/first source build of 3\.17\.0 took (\d+) s/g)].map(
      (match) => match[1],
    );
    expect(stated.length, 'the demo table and the test section').toBeGreaterThanOrEqual(2);
    expect(new Set(stated).size).toBe(1);
    expect(readme).not.toMatch(/about (two|\d+) minutes per release/);
  });

  it("states the Go caches' totals as the sums of their parts", () => {
    const stated = [
      ...readme.matchAll(
        /([\d.]+) GB \(([\d.]+) (MB|GB) modules \+ ([\d.]+) (MB|GB) build cache\)/g,
      ),
    ];
    expect(stated.length, 'after one release and after the three').toBeGreaterThanOrEqual(2);
    for (const [, total, modules, modulesUnit, build, buildUnit] of stated) {
      const sum = megabytes(modules!, modulesUnit!) + megabytes(build!, buildUnit!);
      expect(Number(total)).toBeCloseTo(sum / 1000, 1);
    }
  });

  it('says how to remove each thing the demo keeps', () => {
    for (const command of [
      'rm -rf ~/.cache/woodpecker-ci-mcp',
      'go clean -modcache -cache',
      'podman rmi docker.io/woodpeckerci/woodpecker-server:v3.17.0',
    ])
      expect(readme).toContain(command);
  });
});
