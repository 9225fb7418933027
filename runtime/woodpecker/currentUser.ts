// The one address that says whose token a request carries. The start-up check, doctor, the
// per-account session cap, the Bearer check and the guard's admin question all ask it; one
// definition keeps them asking the same thing (and lets a reader recognise a repeat).
import type { WoodpeckerRequest } from '../core/tool.js';

export const CURRENT_USER_PATH = '/api/user';

export const CURRENT_USER: WoodpeckerRequest = Object.freeze({
  method: 'GET',
  path: CURRENT_USER_PATH,
});
