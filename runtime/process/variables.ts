// Every environment variable the server reads, with one line each: what --help prints,
// what doctor refers to, and what server.json declares. test/unit/process/cli.test.ts checks that
// this list, config.ts and the README's table name the same variables.
export interface VariableHelp {
  readonly name: string;
  readonly meaning: string;
  readonly secret?: boolean;
}

export const VARIABLES: readonly VariableHelp[] = [
  { name: 'WOODPECKER_URL', meaning: "Woodpecker's address, e.g. https://ci.example.com" },
  {
    name: 'WOODPECKER_TOKEN',
    meaning: 'personal access token the server acts with (over HTTP, requests may bring their own)',
    secret: true,
  },
  {
    name: 'WOODPECKER_INSECURE_TLS',
    meaning: 'true skips certificate checks towards Woodpecker (test servers only)',
  },
  {
    name: 'WOODPECKER_TIMEOUT_SECONDS',
    meaning: 'timeout of each call to Woodpecker, 1-600 (default 30)',
  },
  {
    name: 'ELICITATION',
    meaning:
      'false makes guarded tools use the two-call confirm_token instead of a dialog (default true)',
  },
  { name: 'WOODPECKER_READ_ONLY', meaning: 'true registers only the read-only tools' },
  {
    name: 'WOODPECKER_ALLOW_TOOLS',
    meaning: 'only these tools: names, prefix*, toolsets or essential, comma-separated',
  },
  { name: 'WOODPECKER_DENY_TOOLS', meaning: 'never these tools (same syntax; wins over allow)' },
  {
    name: 'WOODPECKER_HIDE_ADMIN_TOOLS',
    meaning: 'false lists admin-only tools for non-admin tokens too (default true: hidden)',
  },
  {
    name: 'WOODPECKER_DYNAMIC_TOOLS',
    meaning: 'true starts with the essential tools plus find_tools and enable_toolset',
  },
  {
    name: 'WOODPECKER_REPOS',
    meaning: 'repository allowlist: owner/name or owner/*, comma-separated',
  },
  { name: 'WOODPECKER_MCP_AUDIT_LOG', meaning: 'file that gets one JSON line per write call' },
  {
    name: 'WOODPECKER_MCP_POLICY',
    meaning: 'YAML file of operator rules: more questions, refusals, build limits',
  },
  {
    name: 'WOODPECKER_MCP_SEAL_KEY',
    meaning: '32+ bytes shared by replicas (default: derived from WOODPECKER_TOKEN)',
    secret: true,
  },
  {
    name: 'WOODPECKER_MCP_MAX_RESULT_BYTES',
    meaning: 'largest tool result, serialized (default 100000)',
  },
  {
    name: 'WOODPECKER_MCP_MAX_RESPONSE_BYTES',
    meaning: 'largest Woodpecker answer read (default 64 MiB)',
  },
  { name: 'WOODPECKER_MCP_ALLOWED_HOSTS', meaning: 'HTTP: Host names answered besides loopback' },
  { name: 'WOODPECKER_MCP_ALLOWED_ORIGINS', meaning: 'HTTP: browser origins allowed to call' },
  {
    name: 'WOODPECKER_MCP_SESSION_IDLE_SECONDS',
    meaning: 'HTTP: close a 2025 session idle this long (default 600)',
  },
  {
    name: 'WOODPECKER_MCP_SESSIONS_PER_TOKEN',
    meaning: 'HTTP: open sessions per Woodpecker account (default 20)',
  },
  { name: 'WOODPECKER_MCP_MAX_SESSIONS', meaning: 'HTTP: open sessions in all (default 1000)' },
];
