// One Woodpecker stand-in for unit tests: a fresh undici MockAgent per test (no real
// network), and WoodpeckerClients that send through it, with an optional body ceiling.
import { afterEach, beforeEach } from 'vitest';
import { MockAgent } from 'undici';
import { WoodpeckerClient } from '../../runtime/woodpecker/woodpeckerClient.js';

export const MOCK_ORIGIN = 'http://woodpecker.test';

export interface MockWoodpecker {
  /** This test's MockAgent: intercept requests on agent().get(MOCK_ORIGIN). */
  agent(): MockAgent;
  /** A client whose HTTP goes to the MockAgent. */
  client(maxBodyBytes?: number): WoodpeckerClient;
}

/** Call at the top of a file or describe block: sets up and closes the agent around each test. */
export function useMockWoodpecker(): MockWoodpecker {
  let agent: MockAgent | undefined;
  beforeEach(() => {
    agent = new MockAgent();
    agent.disableNetConnect();
  });
  afterEach(async () => {
    await agent?.close();
  });
  const current = (): MockAgent => {
    if (!agent) throw new Error('useMockWoodpecker: no test is running');
    return agent;
  };
  return {
    agent: current,
    client: (maxBodyBytes) =>
      new WoodpeckerClient({
        baseUrl: MOCK_ORIGIN,
        insecureTls: false,
        timeoutMs: 5_000,
        dispatcher: current(),
        ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }),
      }),
  };
}
