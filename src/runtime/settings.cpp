// Environment settings, parsed once, and the public thread-count functions.
#include "runtime/settings.hpp"

#include <atomic>
#include <cstdlib>

#include "ridge/isa.hpp"
#include "ridge/machine.hpp"

namespace ridge {
namespace runtime {
namespace {

int environment_threads() {
  static const int threads = [] {
    if (int n = parse_thread_count(std::getenv("RIDGE_NUM_THREADS")); n > 0) return n;
    if (int n = parse_thread_count(std::getenv("OMP_NUM_THREADS")); n > 0) return n;
    return Machine::current().logical_cpus;
  }();
  return threads;
}

std::atomic<int> api_threads{0};

}  // namespace

int parse_thread_count(const char* text) {
  if (text == nullptr || *text == '\0') return 0;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  // OMP_NUM_THREADS may be a list ("4,2"): the first entry is the outer level.
  if (end == text || (*end != '\0' && *end != ',')) return 0;
  if (value <= 0 || value > 4096) return 0;
  return static_cast<int>(value);
}

int max_threads() {
  const int api = api_threads.load(std::memory_order_relaxed);
  return api > 0 ? api : environment_threads();
}

const std::string& isa_request() {
  static const std::string request = [] {
    const char* text = std::getenv("RIDGE_ISA");
    return std::string(text ? text : "");
  }();
  return request;
}

bool avx_vnni_allowed() {
  static const bool allowed = [] {
    const char* text = std::getenv("RIDGE_AVX_VNNI");
    return !(text != nullptr && text[0] == '0' && text[1] == '\0');
  }();
  return allowed;
}

bool verbose() {
  static const bool on = [] {
    const char* text = std::getenv("RIDGE_VERBOSE");
    return text != nullptr && *text != '\0' && *text != '0';
  }();
  return on;
}

}  // namespace runtime

int num_threads() { return runtime::max_threads(); }

void set_num_threads(int threads) {
  runtime::api_threads.store(threads > 0 ? threads : 0, std::memory_order_relaxed);
}

}  // namespace ridge
