// What reaches stderr from an error raised while serving. Its message can quote a
// client's request (the SDK names a rejected method), so a newline in it would let a
// client write lines of its own into the operator's log, and a megabyte-long method would
// land there whole. One line each, and a bounded one.

/** The longest message written; the rest is counted, not written. */
const MAX_MESSAGE_CHARS = 500;

export function errorLine(message: string): string {
  const visible = message.replace(
    // Control characters, including CR/LF and the Unicode line and paragraph separators.
    /[\u0000-\u001f\u007f\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const cut =
    visible.length > MAX_MESSAGE_CHARS
      ? `${visible.slice(0, MAX_MESSAGE_CHARS)}… (${visible.length - MAX_MESSAGE_CHARS} more characters)`
      : visible;
  return `woodpecker-ci-mcp: ${cut}\n`;
}
