// Exit statuses, made for CI: a job can tell a failed measurement from a refusal or a typo, and a
// nettools server that did not answer from resolvers behind it that did not.
export const EXIT = {
  ok: 0,
  failed: 1, // measured, and the measurement fails the check (unreachable, loss, NXDOMAIN, no data, disagreement, expectation)
  usage: 2,
  refused: 3, // the server answered with a problem: its title and detail go to stderr
  noAnswer: 4, // no usable answer from the nettools server: transport, deadline, cut-off body, wrong shape, not the API's
  upstream: 5, // the resolvers behind the server gave no answer (upstream-failed, upstream-timeout): retrying later may help
} as const;
