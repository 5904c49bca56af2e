// The message of the std::invalid_argument a call throws, for tests of argument checks.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>

namespace ridge::test {

// What `call` threw as std::invalid_argument, or "" when it returned.
inline std::string error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace ridge::test
