// The cold-start baseline: the smallest MCP server SDK v2 allows, one tool, over stdio.
// Plain JavaScript so nothing is compiled; the same Node runs it.
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

serveStdio(() => {
  const server = new McpServer({ name: 'bare', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool(
    'echo',
    {
      description: 'Echoes its text.',
      inputSchema: fromJsonSchema({ type: 'object', properties: { text: { type: 'string' } } }),
    },
    async (args) => ({
      content: [{ type: 'text', text: String(args.text ?? '') }],
    }),
  );
  return server;
});
