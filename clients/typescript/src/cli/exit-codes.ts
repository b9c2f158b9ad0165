// Exit statuses, made for CI: a job can tell a failed measurement from a refusal or a typo.
export const EXIT = {
  ok: 0,
  failed: 1, // measured, and the measurement fails the check (unreachable, loss, no record, disagreement, expectation)
  usage: 2,
  refused: 3, // the server answered with a problem: its title and detail go to stderr
  noAnswer: 4, // no HTTP answer from the server, or one that is not the API's
} as const;
