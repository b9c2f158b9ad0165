// The requests test/support/scheduled-faults.ts makes throw, for the tests that send them. Apart from that
// module, so that importing these patches nothing in the test's own process.
export const FAULTY_NAME = 'race-fault.test'; // its resolvers' answers come back unreadable
export const FAULTY_ROUND = { address: '127.0.0.2', echoes: 3 }; // a long ping's later round of 3 echoes throws
export const FAULTY_CALLBACK = '127.0.0.3'; // the ICMP engine's call back gets a result that does not unpack
