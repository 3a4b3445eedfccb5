// Which streams are capturing into which graph (see stream_capture.hpp).
#include "stream_capture.hpp"

#include <map>
#include <mutex>
#include <set>

namespace gpulab::emu {
namespace {
std::mutex capture_mutex;
std::map<cudaStream_t, cudaGraph_t> capturing;
std::set<cudaGraph_t> invalidated;
}  // namespace

Ticket submit(cudaStream_t stream, std::function<void()> work, const char* kind) {
  {
    std::lock_guard lock(capture_mutex);
    const auto it = capturing.find(stream);
    if (it != capturing.end()) {
      it->second->nodes.push_back(std::make_unique<CUgraphNode_st>(CUgraphNode_st{kind, std::move(work)}));
      return 0;
    }
  }
  return enqueue(stream, std::move(work));
}

cudaGraph_t capturing_graph(cudaStream_t stream) {
  std::lock_guard lock(capture_mutex);
  const auto it = capturing.find(stream);
  return it == capturing.end() ? nullptr : it->second;
}
void begin_capture(cudaStream_t stream, cudaGraph_t graph) {
  std::lock_guard lock(capture_mutex);
  capturing[stream] = graph;
}
void join_capture(cudaStream_t stream, cudaGraph_t graph) {
  std::lock_guard lock(capture_mutex);
  capturing.emplace(stream, graph);
}
cudaGraph_t end_capture(cudaStream_t stream, bool& was_invalidated) {
  std::lock_guard lock(capture_mutex);
  const auto it = capturing.find(stream);
  if (it == capturing.end()) return nullptr;
  const cudaGraph_t graph = it->second;
  was_invalidated = invalidated.erase(graph) != 0;
  for (auto s = capturing.begin(); s != capturing.end();) s = s->second == graph ? capturing.erase(s) : std::next(s);
  return graph;
}
void invalidate_capture(cudaStream_t stream) {
  std::lock_guard lock(capture_mutex);
  if (const auto it = capturing.find(stream); it != capturing.end()) invalidated.insert(it->second);
}
bool capture_invalidated(cudaGraph_t graph) {
  std::lock_guard lock(capture_mutex);
  return invalidated.count(graph) != 0;
}

}  // namespace gpulab::emu
