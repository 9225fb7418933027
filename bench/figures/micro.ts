// In-process figures that need no Woodpecker: RE2 log search against native RegExp (the
// price of never hanging), and sealing + opening an approval against one HMAC.
import { createHmac } from 'node:crypto';
import { compileMatcher } from '../../runtime/handlers/search_logs.js';
import { Sealer } from '../../runtime/gate/seal.js';
import type { Row } from '../row.js';
import { interleave, median, ms } from '../stats.js';

export async function logSearchEngine(): Promise<Row[]> {
  const lines = Array.from({ length: 100_000 }, (_, i) =>
    i % 997 === 0
      ? `ERROR step ${i} failed: exit status 1`
      : `info: compiled module ${i} in ${i % 50} ms`,
  );
  const re2 = compileMatcher('error step \\d+ failed', true, true);
  const native = /error step \d+ failed/i;
  // What search_logs did before: a Matcher object per line.
  const { RE2JS } = await import('re2js');
  const compiled = RE2JS.compile('error step \\d+ failed', RE2JS.CASE_INSENSITIVE);
  let re2Hits = 0;
  let nativeHits = 0;
  let matcherHits = 0;
  const timed = await interleave(
    7,
    () => (re2Hits = lines.filter((line) => re2(line)).length),
    () => (nativeHits = lines.filter((line) => native.test(line)).length),
  );
  const perLine = await interleave(
    7,
    () => (matcherHits = lines.filter((line) => compiled.matcher(line).find()).length),
    () => (nativeHits = lines.filter((line) => native.test(line)).length),
  );
  if (re2Hits !== nativeHits || matcherHits !== nativeHits)
    throw new Error(`engines disagree: ${re2Hits}, ${matcherHits}, ${nativeHits}`);
  return [
    {
      figure: 'RE2 with a Matcher per line (search_logs before), 100k lines',
      subject: `matcher(line).find(): median ${ms(median(perLine.subject))} ms`,
      baseline: `native RegExp: median ${ms(median(perLine.baseline))} ms`,
      result: `${(median(perLine.subject) / median(perLine.baseline)).toFixed(1)}×`,
      goal: 'reported',
      met: undefined,
    },
    {
      figure: 'search_logs matcher over 100k lines (case-insensitive regex)',
      subject: `search_logs' matcher: median ${ms(median(timed.subject))} ms`,
      baseline: `native RegExp: median ${ms(median(timed.baseline))} ms`,
      result: `${(median(timed.subject) / median(timed.baseline)).toFixed(1)}×`,
      goal: 'reported',
      met: undefined,
    },
  ];
}

export async function gateSealing(): Promise<Row[]> {
  const sealer = new Sealer(undefined, 300_000);
  const key = Buffer.alloc(32, 7);
  const payload = {
    kind: 'question',
    tool: 'approve_pipeline',
    fingerprint: 'x'.repeat(43),
    principal: 'y'.repeat(22),
  } as const;
  const timed = await interleave(
    7,
    () => {
      for (let i = 0; i < 5_000; i++) sealer.open(sealer.seal(payload));
    },
    () => {
      for (let i = 0; i < 5_000; i++)
        createHmac('sha256', key).update(JSON.stringify(payload)).digest('base64url');
    },
  );
  return [
    {
      figure: 'seal + open an approval, 5,000 times',
      subject: `median ${ms(median(timed.subject))} ms`,
      baseline: `one HMAC-SHA256 of the payload: median ${ms(median(timed.baseline))} ms`,
      result: `${(median(timed.subject) / median(timed.baseline)).toFixed(1)}×`,
      goal: 'reported',
      met: undefined,
    },
  ];
}
