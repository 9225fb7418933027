// Which Woodpecker releases this build was made for. SPEC_RELEASE is the release
// woodpecker-openapi.json was pulled from (test/unit/doctor.test.ts keeps the two equal);
// OLDEST_RELEASE is the oldest the test suite runs against.
export const SPEC_RELEASE = '3.17.0';
export const OLDEST_RELEASE = '3.11.0';
