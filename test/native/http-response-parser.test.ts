// The HTTP response parser's rules (native/http/http_response_parser.cc), one uvu test per case of its C++
// table (native/http/http_response_parser_test.cc), built here with ASan and UBSan so that a read past a
// buffer fails its case too.
import { test } from 'uvu';
import { buildAndRunCaseTable, caseTableTests } from '../support/native-case-table';

const outcome = buildAndRunCaseTable(['http/http_response_parser_test.cc', 'http/http_response_parser.cc']);

// One case per rule of the parser, 70 and more.
caseTableTests(outcome, 'error-codes-are-llhttp-names', 70);

test.run();
