// The ICMP engine's wake heap (native/icmp/icmp_wake_heap.cc), one uvu test per case of its C++ table
// (native/icmp/icmp_wake_heap_test.cc), built here with ASan and UBSan so that a stray index fails its case too.
import { test } from 'uvu';
import { buildAndRunCaseTable, caseTableTests } from '../support/native-case-table';

const outcome = buildAndRunCaseTable(['icmp/icmp_wake_heap_test.cc', 'icmp/icmp_wake_heap.cc']);

caseTableTests(outcome, 'random-operations-agree-with-a-sorted-reference');

test.run();
