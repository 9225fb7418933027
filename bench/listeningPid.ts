// Which process listens on a loopback TCP port (Linux): the socket's inode from
// /proc/net/tcp{,6}, then the process holding a descriptor for it. The bench uses it to
// read Woodpecker's CPU time without the test harness having to expose its process.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

const LISTEN = '0A';

export function pidListeningOn(port: number): number | undefined {
  const inode = listeningInode(port);
  if (inode === undefined) return undefined;
  const socket = `socket:[${inode}]`;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue; // not ours, or gone
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${entry}/fd/${fd}`) === socket) return Number(entry);
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

function listeningInode(port: number): string | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let lines: string[];
    try {
      lines = readFileSync(table, 'utf8').split('\n').slice(1);
    } catch {
      continue;
    }
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === LISTEN) return fields[9];
    }
  }
  return undefined;
}
