// Building an echo request (native/icmp/icmp_codec.cc, BuildEcho), one uvu test per case of its C++ table
// (native/icmp/icmp_codec_test.cc), built here with ASan and UBSan so that a byte written past the packet
// fails its case too.
import { test } from 'uvu';
import { buildAndRunCaseTable, caseTableTests } from '../support/native-case-table';

const outcome = buildAndRunCaseTable(['icmp/icmp_codec_test.cc', 'icmp/icmp_codec.cc']);

caseTableTests(outcome, 'what-does-not-fit-builds-nothing');

test.run();
