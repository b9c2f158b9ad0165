import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { reportOwner } from './report-owner';

// Reports in the shape LeakSanitizer and UBSan write them (frames shortened).
const report = (...leaks: string[]) => `=================================================================
==17596==ERROR: LeakSanitizer: detected memory leaks

${leaks.join('\n\n')}

SUMMARY: AddressSanitizer: 96 byte(s) leaked in 2 allocation(s).
`;

const byJavaScript = `Direct leak of 48 byte(s) in 1 object(s) allocated from:
    #0 0x7f686f0b84c8 in operator new(unsigned long) ../../../../src/libsanitizer/asan/asan_new_delete.cpp:95
    #1 0x55d0c5a8e0f5 in node::StreamBase::Write(uv_buf_t*, unsigned long, uv_stream_s*, v8::Local<v8::Object>) (/usr/bin/node+0xd1e0f5)
    #2 0x55d0c5e1a0aa in v8::internal::Builtins_JSEntryTrampoline (/usr/bin/node+0x10aa0aa)
    #3 0x55d0c5b0c001 in v8::internal::Execution::Call(v8::internal::Isolate*, v8::internal::Handle<v8::internal::Object>) (/usr/bin/node+0xd9c001)
    #4 0x55d0c5a10002 in node::InternalMakeCallback(node::Environment*, v8::Local<v8::Object>) (/usr/bin/node+0xca0002)
    #5 0x55d0c5a10003 in napi_make_callback (/usr/bin/node+0xca0003)
    #6 0x7f686ec76f00 in Napi::Function::MakeCallback(napi_value__*, unsigned long, napi_value__* const*, napi_async_context__*) const ../node_modules/node-addon-api/napi-inl.h:2570
    #7 0x7f686ec774c0 in Progress ../native/icmp/icmp_engine_binding.cc:286`;

const byOurCode = `Direct leak of 48 byte(s) in 1 object(s) allocated from:
    #0 0x7f686f0b84c8 in operator new(unsigned long) ../../../../src/libsanitizer/asan/asan_new_delete.cpp:95
    #1 0x7f686ec70001 in nettools::icmp::IcmpEngine::Start(unsigned long) ../native/icmp/icmp_engine.cc:120
    #2 0x55d0c5b0c001 in v8::internal::Execution::Call(v8::internal::Isolate*, v8::internal::Handle<v8::internal::Object>) (/usr/bin/node+0xd9c001)`;

const byOurNapiCall = `Direct leak of 16 byte(s) in 1 object(s) allocated from:
    #0 0x7f686f0b84c8 in operator new(unsigned long) ../../../../src/libsanitizer/asan/asan_new_delete.cpp:95
    #1 0x55d0c5a20001 in napi_create_reference (/usr/bin/node+0xcb0001)
    #2 0x7f686ec75000 in Napi::Reference<Napi::Function>::New ../node_modules/node-addon-api/napi-inl.h:3100
    #3 0x7f686ec77000 in Ping ../native/icmp/icmp_engine_binding.cc:200
    #4 0x55d0c5b0c001 in v8::internal::Execution::Call(v8::internal::Isolate*) (/usr/bin/node+0xd9c001)`;

const allNode = `Direct leak of 4096 byte(s) in 1 object(s) allocated from:
    #0 0x7f686f0b84c8 in malloc ../../../../src/libsanitizer/asan/asan_malloc_linux.cpp:69
    #1 0x55d0c5c00001 in v8::internal::SomethingElse (/usr/bin/node+0xe90001)
    #2 0x55d0c5c00002 in v8::platform::DefaultJobWorker::Run() (/usr/bin/node+0xe90002)`;

// V8 growing its heap for JavaScript that one of our callbacks ran, the stack cut at 30 frames before
// the call into JavaScript shows (a report of the sanitizer run, 2026-11-27).
const byJitCode = `Direct leak of 896 byte(s) in 16 object(s) allocated from:
    #0 0x7f1907eb94c8 in operator new(unsigned long) ../../../../src/libsanitizer/asan/asan_new_delete.cpp:95
    #1 0x1166fb2 in v8::internal::MemoryChunk::MemoryChunk(v8::internal::Heap*, v8::internal::BaseSpace*) (/usr/bin/node+0x1166fb2)
    #2 0x116e2ea in v8::internal::SemiSpace::GrowTo(unsigned long) (/usr/bin/node+0x116e2ea)
    #3 0x15247d5 in v8::internal::Runtime_AllocateInYoungGeneration(int, unsigned long*, v8::internal::Isolate*) (/usr/bin/node+0x15247d5)
    #4 0x7f190349a475  (/usr/bin/node+0x155e475)
    #5 0x7f18e35eb3c1  (<unknown module>)
    #6 0x18cfd1b in Builtins_InterpreterEntryTrampoline (/usr/bin/node+0x18cfd1b)`;

test('a leak V8 made for JavaScript code running, its stack cut before our frame, is Node\'s', () => {
  const owner = reportOwner(report(byJitCode));
  assert.is(owner.ours, false);
  assert.match(owner.why, '<unknown module>');
});

test('a leak JavaScript allocated, called from one of our callbacks, is Node\'s', () => {
  const owner = reportOwner(report(byJavaScript));
  assert.is(owner.ours, false);
  assert.match(owner.why, 'v8::internal::Execution::Call');
});

test('a leak our code allocated is ours, even below a call into JavaScript', () => {
  const owner = reportOwner(report(byOurCode));
  assert.is(owner.ours, true);
  assert.match(owner.why, 'icmp_engine.cc:120');
});

test('a leak through a Node-API call our code made is ours', () => {
  const owner = reportOwner(report(byOurNapiCall));
  assert.is(owner.ours, true);
  assert.match(owner.why, 'icmp_engine_binding.cc:200');
});

test('one leak of ours among Node\'s makes the report ours', () => {
  assert.is(reportOwner(report(byJavaScript, byOurCode)).ours, true);
});

test('a leak with no frame of ours and no call into JavaScript still fails (lsan.supp names such sites)', () => {
  assert.is(reportOwner(report(allNode)).ours, true);
});

test('an indirect leak with no frame of ours hangs from a leak judged itself: not ours', () => {
  assert.is(reportOwner(report(allNode.replace('Direct', 'Indirect'))).ours, false);
});

test('an indirect leak our code allocated is ours', () => {
  assert.is(reportOwner(report(byOurCode.replace('Direct', 'Indirect'))).ours, true);
});

test('a memory error is ours whatever its stack', () => {
  const owner = reportOwner(`==1==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000011\n${byJavaScript}`);
  assert.is(owner.ours, true);
  assert.match(owner.why, 'heap-buffer-overflow');
});

test('undefined behaviour is ours', () => {
  assert.is(reportOwner('../native/dns/dns_parser.cc:88:12: runtime error: shift exponent 40 is too large\n').ours, true);
});

test('a report this reader cannot make out is ours', () => {
  assert.is(reportOwner('something else entirely\n').ours, true);
});

test.run();
