#include "dns/dns_engine.h"

#include "dns/dns_query_task.h"

namespace nettools::dns {

EngineCore::EngineCore(uv_loop_t* loop, Done done) : loop_(loop), done_(std::move(done)) {}

Status EngineCore::Start(const QuerySpec& spec, uint32_t* id) {
  uint32_t qid = next_id_++;
  if (next_id_ == 0) next_id_ = 1;
  auto* task = new QueryTask(shared_from_this(), qid);
  Status s = task->Begin(spec);
  if (s != Status::kOk) {
    task->Close();
    return s;
  }
  counters_.queries++;
  active_[qid] = task;
  *id = qid;
  return Status::kOk;
}

bool EngineCore::Cancel(uint32_t id) {
  auto it = active_.find(id);
  if (it == active_.end()) return false;
  QueryTask* task = it->second;
  active_.erase(it);
  counters_.cancelled++;
  task->Close();
  return true;
}

void EngineCore::CancelAll() {
  std::vector<uint32_t> ids;
  ids.reserve(active_.size());
  for (const auto& entry : active_) ids.push_back(entry.first);
  for (uint32_t id : ids) Cancel(id);
}

void EngineCore::Detach() { done_ = nullptr; }

void EngineCore::Finished(uint32_t id, QueryOutcome& outcome) {
  active_.erase(id);
  if (outcome.status == Status::kOk) {
    counters_.answered++;
  } else if (outcome.status == Status::kTimeout) {
    counters_.timeouts++;
  } else {
    counters_.errors++;
  }
  // A copy: the callback may run JS that detaches or replaces done_ while it runs.
  Done done = done_;
  if (done) done(id, outcome);
}

}  // namespace nettools::dns
