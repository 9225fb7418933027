// Issue 34 items 5 and 6: WOODPECKER_MCP_POLICY pointed at something that is not a policy
// file. The refusal goes to stderr and to the MCP client, so it names the file, the line
// and the first problem, never a value or a line of the file; and a path that is not a
// regular file, or a file too big, or an alias bomb, is refused at once, naming why.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tools } from '../../../generated/index.js';
import {
  loadPolicyFile,
  MAX_POLICY_BYTES,
  PolicyFileRefused,
} from '../../../runtime/policy/policyFile.js';
import { ConfigError, loadConfig } from '../../../runtime/process/config.js';

const dir = mkdtempSync(join(tmpdir(), 'policy-safety-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function refusalOf(path: string): string {
  const started = Date.now();
  try {
    loadPolicyFile(path, tools);
  } catch (error) {
    expect(error).toBeInstanceOf(PolicyFileRefused);
    // "At once": a FIFO or /dev/zero must not hang or fill memory (generous on a loaded machine).
    expect(Date.now() - started).toBeLessThan(10_000);
    return (error as Error).message;
  }
  throw new Error(`${path} was accepted`);
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('a file that is not a policy', () => {
  const secrets = [
    'AWS_SECRET_ACCESS_KEY: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    'database password is: correct horse battery staple',
    'token: ghp_0123456789abcdefghijklmnopqrstuvwxyz',
    'api_key: sk-live-abcdef',
  ];

  it('is refused naming the file, a line and the first problem, echoing no key, value or line', () => {
    const path = file('app.env.yaml', `${secrets.join('\n')}\n`);
    const message = refusalOf(path);
    expect(message).toContain(path);
    expect(message).toMatch(/:\d+: /);
    for (const line of secrets)
      for (const word of line.split(/[\s:]+/).filter((part) => part.length >= 4))
        expect(message, `echoed ${word}`).not.toContain(word);
    // One problem, with the count of the others, not one line per line of the file.
    expect(message.split('\n').filter((line) => line.includes(path))).toHaveLength(1);
    expect(message).toMatch(/and \d+ more problems?/);
  });

  it('a tool name that is not one is named only if it looks like a tool name', () => {
    const base = 'rules:\n  - name: r\n    tools: [TOOL]\n    effect: deny\n';
    expect(refusalOf(file('typo.yaml', base.replace('TOOL', 'trigger_pipelin')))).toContain(
      'trigger_pipelin is not a tool',
    );
    const message = refusalOf(file('odd.yaml', base.replace('TOOL', '"hunter2 is my password"')));
    expect(message).not.toContain('hunter2');
    expect(message).toContain('rules[0].tools[0] is not a tool of this server');
  });

  it('an unknown key close to a known one is named as the fix', () => {
    const message = refusalOf(
      file('close.yaml', 'rules:\n  - name: r\n    tools: [trigger_pipeline]\n    efect: deny\n'),
    );
    expect(message).toContain('did you mean effect');
  });
});

describe('a path that is not a regular file, or too big', () => {
  it.each([
    ['a directory', () => dir, /not a regular file \(a directory\)/],
    ['/dev/zero', () => '/dev/zero', /not a regular file \(a device\)/],
    [
      'a FIFO',
      () => {
        const path = join(dir, 'fifo');
        execFileSync('mkfifo', [path]);
        return path;
      },
      /not a regular file \(a FIFO\)/,
    ],
    [
      'a file over the limit',
      () => file('big.yaml', `# ${'x'.repeat(MAX_POLICY_BYTES)}\nrules: []\n`),
      /larger than 1 MiB/,
    ],
    ['a missing file', () => join(dir, 'missing.yaml'), /cannot be read \(ENOENT\)/],
  ])('%s is refused at once, naming why', (_, pathOf, why) => {
    const path = pathOf();
    const message = refusalOf(path);
    expect(message).toMatch(why);
    expect(message).toContain('WOODPECKER_MCP_POLICY');
  });

  it('a symlink to a policy file is read (a Kubernetes ConfigMap mounts one)', () => {
    const target = file(
      'real.yaml',
      'rules:\n  - name: r\n    tools: [trigger_pipeline]\n    effect: ask\n',
    );
    const link = join(dir, 'link.yaml');
    symlinkSync(target, link);
    expect(loadPolicyFile(link, tools).rules).toHaveLength(1);
  });

  it('an alias bomb is refused naming the file and the variable', () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let level = 1; level < 9; level++) {
      const previous = String.fromCharCode(96 + level);
      const name = String.fromCharCode(97 + level);
      lines.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    const path = file('bomb.yaml', `${lines.join('\n')}\nrules: []\n`);
    const message = refusalOf(path);
    expect(message).toContain(path);
    expect(message).toContain('WOODPECKER_MCP_POLICY');
    expect(message).toMatch(/aliases/);
  });
});

describe('what the YAML says that nothing here understands', () => {
  it('an unknown tag is refused at its line, not loaded as text', () => {
    const message = refusalOf(
      file(
        'tag.yaml',
        'rules:\n  - name: r\n    tools: [trigger_pipeline]\n    effect: ask\n    because: !!js/function "x"\n',
      ),
    );
    expect(message).toMatch(/tag\.yaml:5: a YAML tag this server does not understand/);
  });
});

describe('WOODPECKER_MCP_POLICY set but empty', () => {
  it('stops the server: an empty value is more likely a template gone wrong than "no policy"', () => {
    expect(() => loadConfig({ WOODPECKER_MCP_POLICY: '' })).toThrow(ConfigError);
    expect(() => loadConfig({ WOODPECKER_MCP_POLICY: '  ' })).toThrow(
      /WOODPECKER_MCP_POLICY is set but empty/,
    );
    expect(loadConfig({}).policyPath).toBeUndefined();
  });
});

describe('a file of a million bytes of problems', () => {
  // The refusal names the first problem and counts the others; finding them must not cost
  // time that grows with the square of the file (60k unknown keys once took 149 s, and the
  // server did not start meanwhile). Each file here is just under MAX_POLICY_BYTES.
  function filled(head: string, item: (index: number) => string, tail = ''): [string, number] {
    const parts = [head];
    let size = head.length + tail.length;
    let count = 0;
    for (;;) {
      const next = item(count);
      if (size + next.length > MAX_POLICY_BYTES) break;
      parts.push(next);
      size += next.length;
      count++;
    }
    parts.push(tail);
    return [parts.join(''), count];
  }

  // Not refusalOf: its ten seconds are for a FIFO; time is measured in bench/, not here.
  function refusalOfText(text: string, name: string): string {
    try {
      loadPolicyFile(file(name, text), tools);
    } catch (error) {
      expect(error).toBeInstanceOf(PolicyFileRefused);
      return (error as Error).message;
    }
    throw new Error('accepted');
  }

  function expectFirstAndCount(message: string, path: string, first: RegExp, others: number) {
    const named = message.split('\n').filter((line) => line.includes(path));
    expect(named).toHaveLength(1);
    expect(named[0]).toMatch(first);
    expect(message).toContain(`(and ${others} more problems after it; fix this one first)`);
  }

  it('unknown keys at the top: the first is named by its line, the rest counted', () => {
    const [text, keys] = filled('', (index) => `key_${index}: value_${index}\n`);
    expect(keys).toBeGreaterThan(40_000);
    const message = refusalOfText(text, 'keys.yaml');
    // `rules` is missing too: one more problem than there are keys, and the first.
    expectFirstAndCount(message, join(dir, 'keys.yaml'), /keys\.yaml:1: rules is missing/, keys);
    expect(message).not.toContain('key_0');
  });

  it('unknown keys inside one rule', () => {
    const [text, keys] = filled(
      'rules:\n  - name: r\n    tools: [trigger_pipeline]\n    effect: deny\n',
      (index) => `    key_${index}: value\n`,
    );
    const message = refusalOfText(text, 'rulekeys.yaml');
    expectFirstAndCount(
      message,
      join(dir, 'rulekeys.yaml'),
      /rulekeys\.yaml:5: rules\[0\]: an unknown key/,
      keys - 1,
    );
  });

  it('tool names that are not tools, none close to one', () => {
    const [text, names] = filled(
      'rules:\n  - name: r\n    effect: deny\n    tools:\n',
      (index) => `      - name_${index}\n`,
    );
    const message = refusalOfText(text, 'names.yaml');
    expectFirstAndCount(
      message,
      join(dir, 'names.yaml'),
      /names\.yaml:5: rules\[0\]\.tools: rules\[0\]\.tools\[0\] is not a tool of this server/,
      names - 1,
    );
  });

  it('rules that name neither tools nor groups', () => {
    const [text, rules] = filled('rules:\n', (index) => `  - { name: r${index}, effect: deny }\n`);
    const message = refusalOfText(text, 'rules.yaml');
    expectFirstAndCount(
      message,
      join(dir, 'rules.yaml'),
      /rules\.yaml:2: rules\[0\]: a rule names `tools` or `groups`/,
      rules - 1,
    );
  });

  it('the same key again and again', () => {
    const [text, keys] = filled('', () => 'rules: []\n');
    const message = refusalOfText(text, 'again.yaml');
    expectFirstAndCount(
      message,
      join(dir, 'again.yaml'),
      /again\.yaml:2: not valid YAML at column 1: Map keys must be unique/,
      keys - 2,
    );
  });
});
